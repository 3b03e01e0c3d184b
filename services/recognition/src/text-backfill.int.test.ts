/**
 * The text backfill on a real SQLite store, the files service answered in process: a file recognised
 * before recognition kept text (FileRecognized of the old layout) gets FileTextRecognized with the text
 * read again from its stored bytes, once; a file that has text, or whose bytes are gone, gets nothing;
 * a second pass starts after the checkpoint and does nothing again.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { recognitionStream } from '@docflow/contracts';
import { createSqliteEventStore, type NewEvent } from '@docflow/eventstore';
import { createLogger } from '@docflow/kit';
import { checkpointStore, openLocalDb } from '@docflow/kit/eventsourcing';
import { inProcessClient } from '@docflow/kit/http';
import { createOcrPool, type OcrPool } from './ocr-pool';
import { textPdf } from './testing/fixtures';
import { INVOICE_LINES } from './testing/invoice-form';
import { startTextBackfill } from './text-backfill';

const log = createLogger('test', 'silent');
const DOC = {
  old: 'd0c0000000000000000000a1',
  current: 'd0c0000000000000000000a2',
  gone: 'd0c0000000000000000000a3',
};
const FILE = {
  old: 'f11e000000000000000000a1',
  current: 'f11e000000000000000000a2',
  gone: 'f11e000000000000000000a3',
};

/** FileRecognized as written before 73fbdae (version 1, no text), or as now (version 2, with text). */
function recognized(fileId: string, text?: string): NewEvent {
  return {
    id: randomUUID(),
    type: 'FileRecognized',
    version: text === undefined ? 1 : 2,
    data: { fileId, parts: [], pageCount: 1, ...(text === undefined ? {} : { text }) },
    metadata: {
      correlationId: 'c',
      actor: 'usr-00000000-0000-4000-8000-0000000000a0',
      timestamp: new Date().toISOString(),
    },
  };
}

describe('text backfill (SQLite event store, files in process)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-text-backfill-'));
  const store = createSqliteEventStore({ file: join(dir, 'events.db') });
  const db = openLocalDb(join(dir, 'local.db'));
  const asked: string[] = [];
  const pdf = textPdf([INVOICE_LINES]);
  const files = inProcessClient(async (request) => {
    const fileId = new URL(request.url).pathname.split('/').at(-1)!;
    asked.push(fileId);
    if (fileId === FILE.old)
      return new Response(pdf, { headers: { 'content-type': 'application/octet-stream' } });
    return Response.json({ status: 404, title: 'Not found' }, { status: 404 });
  });
  let pool: OcrPool;
  const deps = () => ({
    store,
    files,
    internalToken: 't',
    pool: async () => pool,
    checkpoints: checkpointStore(db),
    log,
  });

  before(async () => {
    pool = await createOcrPool({ size: 1 });
    await store.append(recognitionStream(DOC.old), [recognized(FILE.old)], 0);
    await store.append(recognitionStream(DOC.current), [recognized(FILE.current, 'already here')], 0);
    await store.append(recognitionStream(DOC.gone), [recognized(FILE.gone)], 0);
  });
  after(async () => {
    await pool?.terminate();
    await store.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the text of a file recognised without it, once; passes a file whose bytes are gone', async () => {
    const backfill = startTextBackfill(deps());
    assert.deepEqual(await backfill.done, { complete: true, recorded: 1, passed: 1 });
    await backfill.stop();
    assert.deepEqual(asked.sort(), [FILE.old, FILE.gone].sort(), 'a file with text is not read again');
    const stream = await store.readStream(recognitionStream(DOC.old));
    assert.deepEqual(
      stream.map((e) => e.type),
      ['FileRecognized', 'FileTextRecognized'],
    );
    const text = String(stream[1]!.data.text);
    assert.match(text, /INV-2026-001/);
    assert.equal(stream[1]!.data.fileId, FILE.old);
    assert.equal(stream[1]!.metadata.causationId, stream[0]!.id);
    assert.equal((await store.readStream(recognitionStream(DOC.gone))).length, 1);
  });

  it('a second start goes on after its checkpoint: nothing read, nothing appended', async () => {
    asked.length = 0;
    const backfill = startTextBackfill(deps());
    assert.deepEqual(await backfill.done, { complete: true, recorded: 0, passed: 0 });
    await backfill.stop();
    assert.deepEqual(asked, []);
    assert.equal((await store.readStream(recognitionStream(DOC.old))).length, 2);
  });
});
