/**
 * A text layer read by the real pdf.js in the PDF thread: words with their boxes, lines in reading order
 * whatever order the file writes its pieces in (issue 34: `993548900Factuurnummer:`, an address read
 * bottom to top).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openPdfInWorker } from './pdf-thread';
import { layoutText } from './reading-order';
import { type PlacedText, placedTextPdf } from './testing/fixtures';

const ADDRESS = ['ACME B.V.', 'Keizersgracht 1', '1015 CJ Amsterdam'];
const DETAILS = [
  { label: 'Factuurnummer:', value: '993548900' },
  { label: 'Factuurdatum:', value: '03-08-2024' },
];

/** Written as some producers do: details first, each value before its label, the address from its last line up. */
const PIECES: PlacedText[] = [
  ...DETAILS.flatMap((d, i) => [
    { text: d.value, x: 418, y: 100 + 16 * i },
    { text: d.label, x: 340, y: 100 + 16 * i },
  ]),
  ...ADDRESS.map((text, i) => ({ text, x: 72, y: 96 + 12 * i })).reverse(),
  { text: 'Totaal te betalen: 1.234,50 EUR', x: 72, y: 300 },
];

describe('a PDF text layer in reading order', () => {
  it('reads the address top to bottom, then each label before its value, then what follows below', async () => {
    const pdf = await openPdfInWorker(placedTextPdf([PIECES]));
    try {
      const layout = await pdf.pageLayout(0);
      assert.equal(layout.source, 'text-layer');
      assert.deepEqual([layout.width, layout.height], [595, 842]);
      assert.equal(
        layoutText(layout),
        [
          ...ADDRESS,
          'Factuurnummer: 993548900',
          'Factuurdatum: 03-08-2024',
          'Totaal te betalen: 1.234,50 EUR',
        ].join('\n'),
      );
      const words = layout.lines.flatMap((l) => l.words);
      const box = (text: string) => words.find((w) => w.text === text)!.box;
      const [left, top, right, bottom] = box('993548900');
      // Where the piece was written: x 418 pt of 595, baseline 100 pt of 842 from the top.
      assert.ok(Math.abs(left - 418 / 595) < 0.002, `left ${left}`);
      assert.ok(top < 100 / 842 && bottom > 100 / 842, `top ${top}, bottom ${bottom}`);
      assert.ok(right > left && box('Factuurnummer:')[2] < left);
      assert.ok(words.every((w) => w.confidence === 100));
    } finally {
      await pdf.close();
    }
  });
});
