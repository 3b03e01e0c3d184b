import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadImage } from '@napi-rs/canvas';
import { hasTextLayer, openPdf, PdfUnreadableError } from './pdf';
import { layoutText } from './reading-order';
import { drawPage, imagePdf, textPdf } from './testing/fixtures';
import { DELIVERY_NOTE_LINES, INVOICE_LINES } from './testing/invoice-form';

describe('openPdf', () => {
  it('reads the text layer of each page, line by line', async () => {
    const pdf = await openPdf(textPdf([INVOICE_LINES, DELIVERY_NOTE_LINES]));
    try {
      assert.equal(pdf.pageCount, 2);
      assert.equal(layoutText(await pdf.pageLayout(0)), INVOICE_LINES.map((l) => l.text).join('\n'));
      assert.equal(layoutText(await pdf.pageLayout(1)), DELIVERY_NOTE_LINES.map((l) => l.text).join('\n'));
    } finally {
      await pdf.close();
    }
  });

  it('a scanned page has no text layer, and renders as an A4 8-bit grey PNG at 300 dpi', async () => {
    const pdf = await openPdf(imagePdf([drawPage(INVOICE_LINES, 100)]));
    try {
      assert.equal(pdf.pageCount, 1);
      const text = layoutText(await pdf.pageLayout(0));
      assert.equal(hasTextLayer(text), false);
      const png = await pdf.renderPage(0);
      assert.equal(png[24], 8);
      assert.equal(png[25], 0, 'grey');
      const image = await loadImage(png);
      assert.deepEqual([image.width, image.height], [2480, 3509]);
    } finally {
      await pdf.close();
    }
  });

  const corrupt: Array<[name: string, bytes: Buffer]> = [
    ['garbage after a PDF header', Buffer.from('%PDF-1.7\nnot a pdf at all')],
    ['not a PDF', Buffer.from('hello world')],
    ['a truncated PDF', textPdf([INVOICE_LINES]).subarray(0, 150)],
  ];
  for (const [name, bytes] of corrupt)
    it(`${name} → PdfUnreadableError`, async () => {
      await assert.rejects(openPdf(bytes), PdfUnreadableError);
    });

  it('a page that does not exist → PdfUnreadableError', async () => {
    const pdf = await openPdf(textPdf([INVOICE_LINES]));
    try {
      await assert.rejects(pdf.pageLayout(1), PdfUnreadableError);
    } finally {
      await pdf.close();
    }
  });
});

describe('hasTextLayer', () => {
  const cases: Array<[text: string, expected: boolean]> = [
    ['', false],
    ['  \n \t', false],
    ['p. 1', false],
    ['INVOICE No. 1', true],
  ];
  for (const [text, expected] of cases)
    it(JSON.stringify(text), () => assert.equal(hasTextLayer(text), expected));
});
