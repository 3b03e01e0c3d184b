/**
 * Learning from corrections (issue 34) when the validator writes a value differently from the page: the
 * corrected value is found among the page's words by its type's normaliser (amounts, dates, ids), with
 * the label beside or above it; the correction then remembers that place, not the wrong value's; and
 * the supplier's next document reads the value there as its field's type.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecognizedPart } from '@docflow/contracts';
import type { RecoPart } from '../recognize-file';
import { decideCorrections } from './learn';
import { evolveMemory } from './memory';
import { rememberedPart } from './remembered-values';
import { type PlacedWord, syntheticPage as page } from './synthetic-page';
import { findValuePlace } from './value-place';

const round = (v: number) => Number(v.toFixed(6));
const texts = (words: readonly { text: string }[] | undefined) => words?.map((w) => w.text).join(' ');

describe('a corrected value on the page', () => {
  const cases: Array<{
    name: string;
    words: PlacedWord[];
    value: string;
    monthFirst?: boolean;
    read: string | undefined;
    label?: string;
  }> = [
    {
      name: 'an amount with grouped thousands and a decimal comma',
      words: [
        ['Zu', 0.1, 0.5],
        ['zahlen', 0.2, 0.5],
        ['1.234,50', 0.72, 0.5],
        ['EUR', 0.83, 0.5],
      ],
      value: '1234.50',
      read: '1.234,50',
      label: 'Zu zahlen',
    },
    {
      name: 'an amount grouped by a space',
      words: [
        ['Betrag', 0.1, 0.5],
        ['1', 0.6, 0.5],
        ['234,50', 0.65, 0.5],
      ],
      value: '1234.5',
      read: '1 234,50',
      label: 'Betrag',
    },
    {
      name: 'a German date',
      words: [
        ['Leistungsdatum', 0.1, 0.2],
        ['03.08.2014', 0.3, 0.2],
      ],
      value: '2014-08-03',
      read: '03.08.2014',
      label: 'Leistungsdatum',
    },
    {
      name: 'a date in words',
      words: [
        ['Date', 0.1, 0.2],
        ['August', 0.3, 0.2],
        ['3', 0.41, 0.2],
        [',', 0.45, 0.2],
        ['2014', 0.5, 0.2],
      ],
      value: '2014-08-03',
      read: 'August 3 , 2014',
      label: 'Date',
    },
    {
      name: 'a US date, month first on a month-first page',
      words: [['08/03/2014', 0.3, 0.2]],
      value: '2014-08-03',
      monthFirst: true,
      read: '08/03/2014',
    },
    {
      name: 'an id under its label',
      words: [
        ['Vorgang', 0.6, 0.1],
        ['QF-88412', 0.6, 0.13],
        ['Seite', 0.1, 0.13],
      ],
      value: 'QF-88412',
      read: 'QF-88412',
      label: 'Vorgang',
    },
    {
      name: 'a value the page does not show',
      words: [['1.234,50', 0.72, 0.5]],
      value: '1234.60',
      read: undefined,
    },
    {
      name: 'an amount is not a date: 03.08 of a date is not 3.08',
      words: [['03.08.2014', 0.3, 0.2]],
      value: '3.08',
      read: undefined,
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const found = findValuePlace(page(c.words), c.value, { monthFirst: c.monthFirst ?? false });
      assert.equal(texts(found?.words), c.read);
      assert.equal(found?.label?.text, c.label);
    });

  it('of two places showing the value, the nearer to where the wrong value was read', () => {
    const twice = page([
      ['Netto', 0.1, 0.4],
      ['100,00', 0.7, 0.4],
      ['Brutto', 0.1, 0.6],
      ['100,00', 0.7, 0.6],
    ]);
    assert.equal(findValuePlace(twice, '100.00', {})?.label?.text, 'Netto', 'the first without a hint');
    assert.equal(findValuePlace(twice, '100.00', {}, [0.7, 0.62, 0.8, 0.64])?.label?.text, 'Brutto');
  });
});

/** Quillfeather's invoices: the total stands far right of "Zu zahlen", written `1.234,50`. */
const QUILL = (total: string, pageIdx: number) =>
  page(
    [
      ['Quillfeather', 0.1, 0.05],
      ['GmbH', 0.21, 0.05],
      ['Netto', 0.1, 0.4],
      ['1.037,39', 0.72, 0.4],
      ['Zu', 0.1, 0.5],
      ['zahlen', 0.2, 0.5],
      [total, 0.72, 0.5],
    ],
    pageIdx,
  );

describe('a correction written differently from the page', () => {
  // The file's second page is the part; the extractor took the net amount for the total.
  const part: RecognizedPart = {
    _id: 'ec000000000000000000000c',
    pageIdxStart: 1,
    pageIdxEnd: 1,
    recoForm: { form: null, id: 'inv', name: 'Invoice' },
    confidence: 80,
    valuesByTags: { supplier: 'Quillfeather GmbH', total: '1037.39' },
    fieldsByTags: {
      supplier: { confidence: 90, pageIdx: 1, box: [0.1, 0.05, 0.31, 0.07] },
      total: { confidence: 60, pageIdx: 1, box: [0.72, 0.4, 0.82, 0.42], label: 'Netto' },
    },
  };
  const learnt = decideCorrections({
    docId: 'd0c00000000000000000000c',
    part,
    corrected: { supplier: 'Quillfeather GmbH', total: '1234.50', invoiceDate: '2014-08-03' },
    at: '2026-11-27T00:00:00.000Z',
    pages: [page([['Cover', 0.1, 0.1]], 0), QUILL('1.234,50', 1)],
  });

  it('remembers where the printed value stands, beside its own label, on the part\u2019s page', () => {
    assert.equal(learnt.length, 1, 'the date is on no page and was never read: nothing to learn of it');
    const place = learnt[0]?.type === 'PlaceRemembered' ? learnt[0].data.place : undefined;
    assert.equal(place?.label, 'Zu zahlen');
    assert.deepEqual(place?.box.map(round), [0.72, 0.5, 0.82, 0.52], 'not the net amount\u2019s place');
    assert.deepEqual(place?.fromLabel?.map(round), [0.62, 0]);
    assert.equal(place?.pageIdx, 0, 'the part\u2019s first page');
  });

  it('a value the extractor did not read at all is learnt from the page', () => {
    const { total: _, ...unread } = part.fieldsByTags!;
    const [event] = decideCorrections({
      docId: 'd0c00000000000000000000c',
      part: { ...part, valuesByTags: { supplier: 'Quillfeather GmbH' }, fieldsByTags: unread },
      corrected: { total: '1234.50' },
      at: '2026-11-27T00:00:00.000Z',
      pages: [QUILL('1.234,50', 1)],
    });
    assert.equal(event?.type === 'PlaceRemembered' && event.data.place.label, 'Zu zahlen');
  });

  it('the supplier\u2019s next invoice reads the total there, as an amount, from memory', () => {
    const next: RecoPart = {
      recoForm: { form: null, id: 'inv', name: 'Invoice' },
      pageIdxStart: 0,
      pageIdxEnd: 0,
      confidence: 80,
      valuesByTags: { supplier: 'QUILLFEATHER GmbH.', total: '1037.39' },
      fieldsByTags: { total: { confidence: 60 } },
    };
    const memory = learnt.reduce(evolveMemory, {});
    const read = rememberedPart(
      next,
      { id: 'inv', name: 'Invoice', match: [], fields: { total: { type: 'amount', labels: ['Total'] } } },
      memory,
      [QUILL('2.000,00', 0)],
    );
    assert.equal(read.valuesByTags.total, '2000.00');
    assert.equal(read.fieldsByTags.total?.source, 'memory');
    assert.equal(read.fieldsByTags.total?.raw, '2.000,00');
    const other = rememberedPart(
      { ...next, valuesByTags: { supplier: 'Other AG', total: '1037.39' } },
      { id: 'inv', name: 'Invoice', match: [], fields: { total: { type: 'amount', labels: ['Total'] } } },
      memory,
      [QUILL('2.000,00', 0)],
    );
    assert.equal(other.valuesByTags.total, '1037.39', 'another supplier reads as before');
  });
});
