/**
 * Every page recognised comes with its layout (issue 34): OCR'd images and scanned PDF pages with
 * tesseract's words, boxes and confidences, text-layer pages with pdf.js's; the recorded text is read
 * from those same lines.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PageLayout } from '@docflow/contracts';
import { createOcrPool, type OcrPool } from './ocr-pool';
import { layoutText } from './reading-order';
import { type RecoSuccess, recognizeFile } from './recognize-file';
import { drawPage, drawPageEncoded, imagePdf, textPdf } from './testing/fixtures';
import { INVOICE_FORM, INVOICE_LINES } from './testing/invoice-form';

let pool: OcrPool;
before(async () => {
  pool = await createOcrPool({ size: 1 });
});
after(() => pool?.terminate());

async function recognized(data: Uint8Array): Promise<RecoSuccess> {
  const result = await recognizeFile({ data }, INVOICE_FORM, pool);
  assert.ok(result.ok, JSON.stringify(result));
  return result;
}

const word = (layout: PageLayout, text: string) =>
  layout.lines.flatMap((l) => l.words).find((w) => w.text === text);

/** Where drawPage put `Invoice No. INV-2026-001` (its third line): 1 inch in, baseline 165.6 pt down an A4 page. */
function assertDrawnWhereExpected(layout: PageLayout) {
  const invoice = word(layout, 'Invoice');
  assert.ok(invoice, layoutText(layout));
  const [left, top, , bottom] = invoice.box;
  assert.ok(Math.abs(left - 72 / 595) < 0.01, `left ${left}`);
  assert.ok(top < 165.6 / 842 && Math.abs(bottom - 165.6 / 842) < 0.01, `top ${top}, bottom ${bottom}`);
  const line = layout.lines.find((l) => l.words.some((w) => w === invoice))!;
  assert.deepEqual(
    line.words.map((w) => w.text),
    ['Invoice', 'No.', 'INV-2026-001'],
  );
}

describe('page layouts of a recognised file', () => {
  it('an image: OCR words with boxes and confidences, the text read from its lines', async () => {
    const result = await recognized(await drawPageEncoded(INVOICE_LINES, 'png', 150));
    assert.equal(result.layouts.length, 1);
    const [layout] = result.layouts as [PageLayout];
    assert.equal(layout.source, 'ocr');
    assert.equal(layout.pageIdx, 0);
    assert.deepEqual([layout.width, layout.height], [1240, 1754]);
    assertDrawnWhereExpected(layout);
    const words = layout.lines.flatMap((l) => l.words);
    assert.ok(words.every((w) => w.confidence > 50 && w.confidence <= 100));
    assert.equal(result.text, layoutText(layout));
  });

  it('a scanned PDF and a text-layer PDF: each page its layout, in the page order', async () => {
    const scan = await recognized(imagePdf([drawPage(INVOICE_LINES, 150), drawPage(INVOICE_LINES, 150)]));
    assert.deepEqual(
      scan.layouts.map((l) => [l.pageIdx, l.source]),
      [
        [0, 'ocr'],
        [1, 'ocr'],
      ],
    );
    assertDrawnWhereExpected(scan.layouts[1]!);

    const text = await recognized(textPdf([INVOICE_LINES]));
    const [layout] = text.layouts as [PageLayout];
    assert.equal(layout.source, 'text-layer');
    assertDrawnWhereExpected(layout);
    assert.equal(text.text, INVOICE_LINES.map((l) => l.text).join('\n'));
  });
});
