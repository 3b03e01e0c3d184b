import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { docFormStream, Rejection } from '@docflow/contracts';
import { commandMetadata } from '@docflow/kit/eventsourcing';
import { appendCreated } from './append';
import { command, context, NEW_DOC_ID, tempStore } from './test-givens';

describe('create step: append DocumentCreated (SQLite event store)', () => {
  const { store, close } = tempStore();
  after(close);
  const { principal, ids } = context();
  const now = new Date('2026-03-01T09:00:00.000Z');

  it('appends the document at revision 1, dated by the command metadata', async () => {
    const doc = await appendCreated(store, command({ now }), commandMetadata(principal, ids, now));
    assert.equal(doc.exists, true);
    assert.equal(doc.rev, 1);
    const [stored, ...more] = await store.readStream(docFormStream(NEW_DOC_ID));
    assert.equal(stored?.type, 'DocumentCreated');
    assert.equal(stored?.metadata.timestamp, now.toISOString());
    assert.equal(more.length, 0);
  });

  it('a second create of the same id: refused as a conflict, nothing appended', async () => {
    await assert.rejects(
      appendCreated(store, command({ now }), commandMetadata(principal, ids, now)),
      (err) => err instanceof Rejection && err.kind === 'conflict',
    );
    assert.equal((await store.readStream(docFormStream(NEW_DOC_ID))).length, 1);
  });
});
