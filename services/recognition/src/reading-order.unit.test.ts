import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { layoutText, type PlacedWord, pageLayout, readingOrder } from './reading-order';

const PAGE = { width: 595, height: 842 };
const CHAR_EM = 0.5;
const SPACE_EM = 0.25;

/** The words of `text` set from x at `baseline`, as a text layer places them (fixed-width letters). */
function phrase(text: string, x: number, baseline: number, size = 10): PlacedWord[] {
  const words: PlacedWord[] = [];
  let at = x;
  for (const word of text.split(' ')) {
    const width = word.length * CHAR_EM * size;
    words.push({
      text: word,
      x0: at,
      x1: at + width,
      top: baseline - 0.8 * size,
      bottom: baseline + 0.2 * size,
      baseline,
      size,
      confidence: 100,
    });
    at += width + SPACE_EM * size;
  }
  return words;
}

const lineTexts = (words: PlacedWord[]) =>
  readingOrder(words, PAGE).map((l) => l.words.map((w) => w.text).join(' '));

describe('reading order', () => {
  it('keeps a label before its value on one line, whatever order the file holds them in', () => {
    // The text layer holds the value first (as the invoices of issue 34 did: `993548900Factuurnummer:`).
    const words = [...phrase('993548900', 144.5, 100), ...phrase('Factuurnummer:', 72, 100)];
    assert.deepEqual(lineTexts(words), ['Factuurnummer: 993548900']);
    // At a tab stop the value is a line of its own, still right after its label.
    const tabbed = [...phrase('993548900', 250, 100), ...phrase('Factuurnummer:', 72, 100)];
    assert.deepEqual(lineTexts(tabbed), ['Factuurnummer:', '993548900']);
  });

  it('reads an address block top to bottom although the file holds it bottom to top', () => {
    const lines = ['ACME B.V.', 'Keizersgracht 1', '1015 CJ Amsterdam', 'Nederland'];
    const words = lines.flatMap((text, i) => phrase(text, 72, 100 + 12 * i)).reverse();
    assert.deepEqual(lineTexts(words), lines);
  });

  it('reads two columns one after the other, left first, each top to bottom', () => {
    const left = ['ACME GmbH', 'Hauptstrasse 1', '10115 Berlin', 'Germany'];
    const right = ['Rechnung Nr. 4711', 'Datum: 14.03.2026', 'Kundennr. 30064443'];
    const words = [
      // Written interleaved, right column first, its lines at another leading than the left's.
      ...right.flatMap((text, i) => phrase(text, 340, 104 + 15 * i)),
      ...left.flatMap((text, i) => phrase(text, 72, 100 + 12 * i)),
    ];
    assert.deepEqual(lineTexts(words), [...left, ...right]);
  });

  it('reads a full-width heading, then the columns below it, then a full-width footer', () => {
    const words = [
      ...phrase('Quarterly report of the northern region and its branches', 72, 60, 14),
      ...phrase('left one', 72, 120),
      ...phrase('left two', 72, 132),
      ...phrase('right one', 340, 126),
      ...phrase('right two', 340, 140),
      ...phrase('right three', 340, 154),
      ...phrase('Page 1 of 1, printed on the first day of the month, all rights', 72, 800),
    ];
    assert.deepEqual(lineTexts(words), [
      'Quarterly report of the northern region and its branches',
      'left one',
      'left two',
      'right one',
      'right two',
      'right three',
      'Page 1 of 1, printed on the first day of the month, all rights',
    ]);
  });

  it('reads a table row by row: its columns pair up on common baselines', () => {
    const rows = [
      ['Widget', '2', '10.00'],
      ['Gadget', '1', '5.50'],
      ['Gizmo', '3', '1.25'],
    ];
    const words = rows.flatMap((cells, i) => [
      ...phrase(cells[0]!, 72, 300 + 14 * i),
      ...phrase(cells[1]!, 300, 300 + 14 * i),
      ...phrase(cells[2]!, 450, 300 + 14 * i),
    ]);
    // A line never spans two columns: each cell is a line of its own, the cells of a row in a run.
    assert.deepEqual(lineTexts(words), rows.flat());
  });

  it('glues letters placed one by one into words, and keeps a word space a space', () => {
    const letters = [...'Total'].map(
      (ch, i): PlacedWord => ({
        text: ch,
        x0: 72 + 5 * i,
        x1: 77 + 5 * i,
        top: 92,
        bottom: 102,
        baseline: 100,
        size: 10,
        confidence: 100,
      }),
    );
    assert.deepEqual(lineTexts([...letters, ...phrase('1,234.50', 102.5, 100)]), ['Total 1,234.50']);
  });

  it('gives boxes as fractions of the page and the text its lines joined', () => {
    const layout = pageLayout([...phrase('Total: 5', 59.5, 84.2, 10)], {
      ...PAGE,
      pageIdx: 2,
      source: 'text-layer',
    });
    assert.equal(layout.pageIdx, 2);
    assert.deepEqual(layout.lines[0]!.words[0]!.box, [0.1, 0.0905, 0.1504, 0.1024]);
    assert.equal(layoutText(layout), 'Total: 5');
    assert.equal(layoutText(pageLayout([], { ...PAGE, pageIdx: 0, source: 'ocr' })), '');
  });
});
