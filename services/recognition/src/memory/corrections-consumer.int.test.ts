/**
 * The correction memory fed from the bus, against a real (SQLite) event store: a person's validation
 * that changed a value of a part with places is remembered in the form's `idpmemory-` stream, once
 * (a redelivery appends nothing); recognition's own validation and a part without places teach nothing.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type RecognizedPart, recognitionMemoryStream, recognitionStream } from '@docflow/contracts';
import { createSqliteEventStore, type EventStore } from '@docflow/eventstore';
import { loadAggregate } from '@docflow/kit/eventsourcing';
import { correctionsHandler } from './corrections-consumer';
import { memoryAggregate } from './memory';

const DOC_ID = 'd0c00000000000000000000a';
const T = '2026-11-26T22:00:00.000Z';
const part: RecognizedPart = {
  _id: 'ec000000000000000000000a',
  pageIdxStart: 0,
  pageIdxEnd: 0,
  recoForm: { form: null, id: 'invoice', name: 'Invoice' },
  confidence: 70,
  valuesByTags: { supplier: 'ACME GmbH', invoiceNo: '2026-11-01' },
  fieldsByTags: {
    supplier: { confidence: 90, pageIdx: 0, box: [0.1, 0.05, 0.31, 0.07] },
    invoiceNo: { confidence: 41, pageIdx: 0, box: [0.72, 0.13, 0.82, 0.15], label: 'Belegnr.' },
  },
};
const { fieldsByTags: _, ...placeless } = { ...part, _id: 'ec000000000000000000000b' };

const validated = (recoId: string, by?: 'person' | 'recognition') => ({
  value: {
    id: randomUUID(),
    type: 'RecoDataValidated',
    version: 1,
    streamId: `docForm-${DOC_ID}`,
    revision: 3,
    recordedAt: T,
    data: { recoId, valuesByTags: { supplier: 'ACME GmbH', invoiceNo: 'R-1001' }, ...(by ? { by } : {}) },
    metadata: { correlationId: 'c', timestamp: T },
  },
});

describe('correction memory consumer', () => {
  let dir: string;
  let store: EventStore;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'docflow-memory-'));
    store = createSqliteEventStore({ file: join(dir, 'events.db') });
    await store.append(
      recognitionStream(DOC_ID),
      [
        {
          id: randomUUID(),
          type: 'FileRecognized',
          version: 2,
          data: {
            fileId: 'f11e0000000000000000000a',
            pageCount: 1,
            parts: [part, placeless],
            form: 'invoice',
          },
          metadata: { correlationId: 'c', timestamp: T },
        },
      ],
      0,
    );
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const memory = async () =>
    (await loadAggregate(store, recognitionMemoryStream('invoice'), memoryAggregate)).state;
  const stored = async () => (await store.readStream(recognitionMemoryStream('invoice'))).length;

  it('recognition\u2019s own validation and a part without places teach nothing', async () => {
    const handle = correctionsHandler({ store });
    await handle(validated(part._id, 'recognition'));
    await handle(validated(placeless._id));
    assert.equal(await stored(), 0);
  });

  it('a person\u2019s correction is remembered for the supplier, once', async () => {
    const handle = correctionsHandler({ store });
    const message = validated(part._id);
    await handle(message);
    await handle(message);
    assert.equal(await stored(), 1, 'the redelivery appended nothing');
    const place = (await memory())['acme gmbh']?.invoiceNo;
    assert.equal(place?.value, 'R-1001');
    assert.equal(place?.label, 'Belegnr.');
    assert.deepEqual(place?.box, [0.72, 0.13, 0.82, 0.15]);
    assert.equal(place?.docId, DOC_ID);
  });
});
