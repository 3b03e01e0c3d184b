/**
 * The correction memory fed from the bus, against a real (SQLite) event store and a local blob store: a
 * person's validation that changed a value of a part with places is remembered in the form's
 * `idpmemory-` stream, once (a redelivery appends nothing), where the corrected value stands on the
 * file's kept page layouts however differently the validator wrote it; recognition's own validation
 * and a part without places teach nothing.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type BlobStore, createLocalBlobStore } from '@docflow/blobstore';
import { type RecognizedPart, recognitionMemoryStream, recognitionStream } from '@docflow/contracts';
import { createSqliteEventStore, type EventStore } from '@docflow/eventstore';
import { loadAggregate } from '@docflow/kit/eventsourcing';
import { keepLayouts } from '../layout-store';
import { correctionsHandler } from './corrections-consumer';
import { memoryAggregate } from './memory';
import { syntheticPage } from './synthetic-page';

const DOC_ID = 'd0c00000000000000000000a';
const T = '2026-11-26T22:00:00.000Z';
/** Page fractions compared to a millionth (they are sums of decimals). */
const round = (v: number) => Number(v.toFixed(6));
const part: RecognizedPart = {
  _id: 'ec000000000000000000000a',
  pageIdxStart: 0,
  pageIdxEnd: 0,
  recoForm: { form: null, id: 'invoice', name: 'Invoice' },
  confidence: 70,
  valuesByTags: { supplier: 'ACME GmbH', invoiceNo: '2026-11-01', total: '1037.39' },
  fieldsByTags: {
    supplier: { confidence: 90, pageIdx: 0, box: [0.1, 0.05, 0.31, 0.07] },
    invoiceNo: { confidence: 41, pageIdx: 0, box: [0.72, 0.13, 0.82, 0.15], label: 'Belegnr.' },
    total: { confidence: 60, pageIdx: 0, box: [0.72, 0.4, 0.82, 0.42], label: 'Netto' },
  },
};
/** The file's page: the validator's `1234.50` is printed `1.234,50`, beside "Zu zahlen". */
const PAGE = syntheticPage([
  ['ACME', 0.1, 0.05],
  ['GmbH', 0.21, 0.05],
  ['Belegnr.', 0.6, 0.1],
  ['R-1001', 0.72, 0.1],
  ['Datum', 0.6, 0.13],
  ['2026-11-01', 0.72, 0.13],
  ['Netto', 0.1, 0.4],
  ['1.037,39', 0.72, 0.4],
  ['Zu', 0.1, 0.5],
  ['zahlen', 0.2, 0.5],
  ['1.234,50', 0.72, 0.5],
]);
const { fieldsByTags: _, ...placeless } = { ...part, _id: 'ec000000000000000000000b' };

const validated = (recoId: string, by?: 'person' | 'recognition') => ({
  value: {
    id: randomUUID(),
    type: 'RecoDataValidated',
    version: 1,
    streamId: `docForm-${DOC_ID}`,
    revision: 3,
    recordedAt: T,
    data: {
      recoId,
      valuesByTags: { supplier: 'ACME GmbH', invoiceNo: 'R-1001', total: '1234.50' },
      ...(by ? { by } : {}),
    },
    metadata: { correlationId: 'c', timestamp: T },
  },
});

describe('correction memory consumer', () => {
  let dir: string;
  let store: EventStore;
  let blobs: BlobStore;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'docflow-memory-'));
    store = createSqliteEventStore({ file: join(dir, 'events.db') });
    blobs = await createLocalBlobStore({ dir: join(dir, 'blobs') });
    const layouts = await keepLayouts(blobs, [PAGE]);
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
            layouts,
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
    const handle = correctionsHandler({ store, blobs });
    await handle(validated(part._id, 'recognition'));
    await handle(validated(placeless._id));
    assert.equal(await stored(), 0);
  });

  it('a person\u2019s correction is remembered for the supplier where the page shows it, once', async () => {
    const handle = correctionsHandler({ store, blobs });
    const message = validated(part._id);
    await handle(message);
    await handle(message);
    assert.equal(await stored(), 2, 'two places learnt; the redelivery appended nothing');
    const { invoiceNo, total } = (await memory())['acme gmbh'] ?? {};
    assert.equal(invoiceNo?.value, 'R-1001');
    assert.equal(invoiceNo?.label, 'Belegnr.');
    assert.deepEqual(invoiceNo?.box.map(round), [0.72, 0.1, 0.82, 0.12], 'where R-1001 stands, not the date');
    assert.equal(invoiceNo?.docId, DOC_ID);
    assert.equal(total?.value, '1234.50');
    assert.equal(total?.label, 'Zu zahlen', 'the printed 1.234,50 beside its label, not the net amount');
    assert.deepEqual(total?.box.map(round), [0.72, 0.5, 0.82, 0.52]);
  });
});
