/**
 * Learning from corrections (issue 34) on synthetic layouts: a validator's correction remembers where
 * the supplier's value stood (beside its label); the next document of that supplier reads the value
 * there first — beside the label wherever it moved, or at the remembered box — and an admin's removal
 * forgets the supplier.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecognizedPart, RememberedPlace } from '@docflow/contracts';
import { applyRememberedPlaces, REMEMBERED_PLACE_FACTOR } from './apply-remembered-places';
import { decideCorrections } from './learn';
import { evolveMemory, type MemoryState } from './memory';
import { syntheticPage as page } from './synthetic-page';

const DOC_ID = 'd0c000000000000000000009';
/** Page fractions compared to a millionth (they are sums of decimals). */
const round = (v: number) => Number(v.toFixed(6));
const AT = '2026-11-26T22:00:00.000Z';

/** ACME's invoice: the number stands right of "Belegnr." (the extractor took the date below instead). */
const ACME_FIRST = page([
  ['ACME', 0.1, 0.05],
  ['GmbH', 0.21, 0.05],
  ['Belegnr.', 0.6, 0.1],
  ['R-1001', 0.72, 0.1],
  ['Datum', 0.6, 0.13],
  ['2026-11-01', 0.72, 0.13],
]);

const part: RecognizedPart = {
  _id: 'ec0000000000000000000009',
  pageIdxStart: 0,
  pageIdxEnd: 0,
  recoForm: { form: null, id: 'invoice', name: 'Invoice' },
  confidence: 70,
  valuesByTags: { supplier: 'ACME GmbH', invoiceNo: '2026-11-01' },
  fieldsByTags: {
    supplier: { confidence: 90, pageIdx: 0, box: [0.1, 0.05, 0.31, 0.07] },
    invoiceNo: {
      confidence: 41,
      pageIdx: 0,
      box: [0.72, 0.13, 0.82, 0.15],
      label: 'Belegnr.',
      raw: '2026-11-01',
    },
  },
};

describe('learning from corrections', () => {
  it('a corrected value is remembered for its supplier where it really stood, relative to its label', () => {
    const events = decideCorrections({
      docId: DOC_ID,
      part,
      corrected: { supplier: 'ACME GmbH', invoiceNo: 'R-1001' },
      at: AT,
      pages: [ACME_FIRST],
    });
    assert.equal(events.length, 1, 'only the changed value teaches');
    const [event] = events;
    assert.equal(event?.type, 'PlaceRemembered');
    assert.equal(event?.data.supplier, 'acme gmbh');
    assert.equal(event?.type === 'PlaceRemembered' && event.data.tag, 'invoiceNo');
    const place = event?.type === 'PlaceRemembered' ? event.data.place : undefined;
    assert.deepEqual(
      place?.box.map(round),
      [0.72, 0.1, 0.82, 0.12],
      'where R-1001 stands, not where the date was read',
    );
    assert.deepEqual(place?.fromLabel?.map(round), [0.12, 0]);
    assert.equal(place?.label, 'Belegnr.');
  });

  it('without the pages, the place the value was read at and its label', () => {
    const [event] = decideCorrections({ docId: DOC_ID, part, corrected: { invoiceNo: 'R-1001' }, at: AT });
    const place = event?.type === 'PlaceRemembered' ? event.data.place : undefined;
    assert.deepEqual(place?.box, [0.72, 0.13, 0.82, 0.15]);
    assert.equal(place?.fromLabel, undefined);
  });

  it('nothing is learnt from a part without places (fieldsByTags), nor without a supplier, nor from unchanged values', () => {
    const { fieldsByTags: _, ...old } = part;
    assert.deepEqual(
      decideCorrections({ docId: DOC_ID, part: old, corrected: { invoiceNo: 'R-1' }, at: AT }),
      [],
    );
    const anonymous = { ...part, valuesByTags: { invoiceNo: '2026-11-01' } };
    assert.deepEqual(
      decideCorrections({ docId: DOC_ID, part: anonymous, corrected: { invoiceNo: 'R-1' }, at: AT }),
      [],
    );
    assert.deepEqual(
      decideCorrections({ docId: DOC_ID, part, corrected: { ...part.valuesByTags }, at: AT }),
      [],
    );
  });

  const learnt = (): MemoryState =>
    decideCorrections({
      docId: DOC_ID,
      part,
      corrected: { invoiceNo: 'R-1001' },
      at: AT,
      pages: [ACME_FIRST],
    }).reduce(evolveMemory, {});

  it('the next document of the supplier: read beside the label, wherever the label moved', () => {
    // The second invoice has a longer head: everything stands 0.2 lower.
    const second = page([
      ['ACME', 0.1, 0.05],
      ['GmbH', 0.21, 0.05],
      ['Belegnr.', 0.6, 0.3],
      ['R-1002', 0.72, 0.3, 96],
      ['Datum', 0.6, 0.33],
      ['2026-11-20', 0.72, 0.33],
    ]);
    const read = applyRememberedPlaces(learnt()['acme gmbh'] ?? {}, [second]);
    assert.equal(read.invoiceNo?.value, 'R-1002');
    const field = read.invoiceNo?.field;
    assert.deepEqual(
      { ...field, box: field?.box?.map(round) },
      {
        confidence: 96 * REMEMBERED_PLACE_FACTOR,
        raw: 'R-1002',
        pageIdx: 0,
        box: [0.72, 0.3, 0.82, 0.32],
        label: 'Belegnr.',
        source: 'memory',
      },
    );
  });

  it('without the label on the page, at the remembered box; nothing where no word stands', () => {
    const place: RememberedPlace = {
      pageIdx: 0,
      box: [0.72, 0.1, 0.82, 0.12],
      value: 'R-1001',
      docId: DOC_ID,
      at: AT,
      label: 'Belegnr.',
      fromLabel: [0.12, 0],
    };
    const unlabelled = page([['R-2000', 0.725, 0.101]]);
    assert.equal(applyRememberedPlaces({ invoiceNo: place }, [unlabelled]).invoiceNo?.value, 'R-2000');
    assert.deepEqual(applyRememberedPlaces({ invoiceNo: place }, [page([['Other', 0.1, 0.5]])]), {});
    assert.deepEqual(
      applyRememberedPlaces({ invoiceNo: { ...place, pageIdx: 1 } }, [page([['R-1', 0.72, 0.1]], 3)]),
      {},
      'a page the part does not have',
    );
  });

  it('a later correction replaces the place; a forgotten supplier is gone', () => {
    const state = evolveMemory(learnt(), {
      type: 'PlaceRemembered',
      data: {
        supplier: 'acme gmbh',
        tag: 'invoiceNo',
        place: { pageIdx: 0, box: [0, 0, 0.1, 0.1], value: 'X', docId: DOC_ID, at: AT },
      },
    });
    assert.equal(state['acme gmbh']?.invoiceNo?.value, 'X');
    assert.deepEqual(evolveMemory(state, { type: 'SupplierForgotten', data: { supplier: 'acme gmbh' } }), {});
  });
});
