import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Box, PageLayout } from './web/model';
import { valueBox } from './web/value-box';

const word = (text: string, left: number, top: number) => ({
  text,
  box: [left, top, left + 0.1, top + 0.02] as Box,
  confidence: 90,
});
const LAYOUT: PageLayout = {
  pageIdx: 0,
  width: 595,
  height: 842,
  source: 'ocr',
  lines: [
    {
      box: [0.1, 0.1, 0.4, 0.12],
      words: [word('Invoice', 0.1, 0.1), word('No.', 0.2, 0.1), word('INV-1', 0.3, 0.1)],
    },
    { box: [0.1, 0.2, 0.4, 0.22], words: [word('ACME', 0.1, 0.2), word('GmbH,', 0.2, 0.2)] },
  ],
};

const rounded = (box: Box | undefined) => box?.map((x) => Number(x.toFixed(4)));

describe('the box of a recognised value', () => {
  it('is the box recognition recorded for the field, on its page', () => {
    assert.deepEqual(
      valueBox('INV-1', { box: [0.5, 0.5, 0.6, 0.6], pageIdx: 0 }, LAYOUT),
      [0.5, 0.5, 0.6, 0.6],
    );
  });

  it('else the words that spell it, case and clinging punctuation aside, several words as one box', () => {
    assert.deepEqual(rounded(valueBox('inv-1', undefined, LAYOUT)), [0.3, 0.1, 0.4, 0.12]);
    assert.deepEqual(rounded(valueBox('ACME GmbH', { pageIdx: 0 }, LAYOUT)), [0.1, 0.2, 0.3, 0.22]);
    // A box recorded for another page does not mark this one.
    assert.deepEqual(
      rounded(valueBox('INV-1', { box: [0.5, 0.5, 0.6, 0.6], pageIdx: 1 }, LAYOUT)),
      [0.3, 0.1, 0.4, 0.12],
    );
  });

  it('none for a value the page does not show, an empty value, or no layout', () => {
    assert.equal(valueBox('INV-2', undefined, LAYOUT), undefined);
    assert.equal(valueBox('  ', undefined, LAYOUT), undefined);
    assert.equal(valueBox('INV-1', undefined, undefined), undefined);
  });
});
