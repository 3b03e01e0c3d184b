import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { DeliveredMessage } from '@docflow/bus';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { createAttachmentIndex } from './attachment-index';
import { documentEventsHandler } from './document-consumer';
import type { AttachedFile } from './file';

const DOC = 'd'.repeat(24);
const FILE = { id: 'f'.repeat(24), sha256: 'e'.repeat(64) };

function message(type: string, data: Record<string, unknown>): DeliveredMessage {
  const value = {
    id: randomUUID(),
    type,
    version: 1,
    streamId: `docForm-${DOC}`,
    revision: 1,
    recordedAt: new Date().toISOString(),
    data,
    metadata: { correlationId: 'c', timestamp: new Date().toISOString() },
  };
  return { topic: 'ns.document', id: value.id, key: DOC, value };
}

const created = (files: AttachedFile[]) =>
  message('DocumentCreated', {
    id: DOC,
    form: 'memo',
    formsystype: 1,
    author: 'usr-00000000-0000-4000-8000-000000000001',
    valuesByTags: {},
    tags: [],
    files: files.map((f) => ({ ...f, fileName: 'a.pdf', size: 3, contentType: 'application/pdf' })),
    datedue: '',
  });

function setup() {
  const db = openLocalDb(':memory:');
  const index = createAttachmentIndex(db);
  const attached: [string, readonly AttachedFile[]][] = [];
  const recording = {
    ...index,
    attach(docId: string, files: readonly AttachedFile[]) {
      attached.push([docId, files.map(({ id, sha256 }) => ({ id, sha256 }))]);
      index.attach(docId, files);
    },
  };
  return { handle: documentEventsHandler(db, recording), index, attached };
}

describe('document events handler', () => {
  it('attaches the files of DocumentCreated, once per event id', async () => {
    const { handle, index, attached } = setup();
    const event = created([FILE]);
    await handle(event);
    await handle(event);
    assert.deepEqual(attached, [[DOC, [FILE]]]);
    assert.equal(index.isAttached(FILE.sha256), true);
  });

  it('a deleted document (WorkflowChanged with DocumentDeleted) no longer holds its content, but its file is kept', async () => {
    const { handle, index } = setup();
    await handle(created([FILE]));
    const at = new Date().toISOString();
    await handle(
      message('WorkflowChanged', {
        sourceIds: [randomUUID()],
        events: [{ type: 'WorkflowSuspended', data: { at } }],
      }),
    );
    assert.equal(index.isAttached(FILE.sha256), true, 'another workflow fact changes nothing');
    await handle(
      message('WorkflowChanged', {
        sourceIds: [randomUUID()],
        events: [
          { type: 'TasksCancelled', data: { respIds: ['a'.repeat(24)], reason: 'deleted', at } },
          { type: 'DocumentDeleted', data: { at } },
        ],
      }),
    );
    assert.equal(index.isAttached(FILE.sha256), false, 'allowDupl=false accepts the content again');
    assert.equal(index.isFileAttached(FILE.id), true, 'the orphan sweeper still keeps the file');
  });

  it('lets other event types pass, whatever their data', async () => {
    const { handle, attached } = setup();
    await handle(message('DocumentTagsChanged', { anything: true }));
    assert.deepEqual(attached, []);
  });

  it('throws on a malformed DocumentCreated, so the bus retries and dead-letters it', async () => {
    const { handle, attached } = setup();
    await assert.rejects(handle(message('DocumentCreated', { id: DOC })));
    await assert.rejects(handle({ ...created([FILE]), value: { not: 'an envelope' } }));
    assert.deepEqual(attached, []);
  });
});
