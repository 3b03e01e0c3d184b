import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { rejections } from '@docflow/contracts';
import { StoreUnavailable } from '@docflow/eventstore';
import { createLogger } from '@docflow/kit';
import { commandMetadata } from '@docflow/kit/eventsourcing';
import { appendCreated } from './append';
import { settleFailedCreate } from './give-up';
import { command, context, NEW_DOC_ID, tempStore } from './test-givens';

describe('create step: what a failed create leaves (SQLite event store)', () => {
  const { store, close } = tempStore();
  after(close);
  const log = createLogger('document-test', 'silent');
  const settle = async (err: unknown, appending: boolean, docId: string) => {
    let gaveUp = 0;
    const files = { giveUp: async () => void gaveUp++ };
    await settleFailedCreate(store, err, { docId, appending, files, log });
    return gaveUp;
  };
  const ABSENT = 'd0c0000000000000000000c2';

  it('refused before its append: its files given up', async () => {
    assert.equal(await settle(rejections.invalid('bad value'), false, ABSENT), 1);
  });

  it('an append refused and no document written: its files given up', async () => {
    assert.equal(await settle(rejections.conflict('a concurrent writer'), true, ABSENT), 1);
  });

  it('an append whose outcome is unknown, or a document that exists: its files stay', async () => {
    assert.equal(await settle(new StoreUnavailable('timed out'), true, ABSENT), 0);
    const { principal, ids } = context();
    await appendCreated(store, command(), commandMetadata(principal, ids));
    assert.equal(await settle(rejections.conflict('written after all'), true, NEW_DOC_ID), 0);
  });
});
