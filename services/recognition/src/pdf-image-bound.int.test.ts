/**
 * An image inside a PDF is held to the same declared-pixel bound as an image file (issue 29, the
 * "declared pixel count before any decoding" of the hostile-files build): pdf.js decodes an image
 * XObject at the size its dictionary declares, outside the PDF thread's JS heap bound, so a 50 KB PDF
 * of an A4 page drawing a 20000 × 20000 1-bit image took this process to 3.5 GB and rendered a blank
 * page (recognised `done` with nothing). Such an image is refused before it is decoded.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_IMAGE_PIXELS } from './image-header';
import { PdfTooLargeError } from './pdf';
import { openPdfInWorker } from './pdf-thread';
import { drawPage, imagePdf } from './testing/fixtures';
import { imageBombPdf } from './testing/hostile';
import { INVOICE_LINES } from './testing/invoice-form';

/** Opens `bytes` in a thread and renders page 1: its PNG, or why not. */
async function renderFirstPage(bytes: Uint8Array): Promise<Buffer | Error> {
  const pdf = await openPdfInWorker(bytes);
  try {
    return await pdf.renderPage(0).catch((err: Error) => err);
  } finally {
    await pdf.close();
  }
}

describe('images inside a PDF are bounded by their declared pixels', () => {
  for (const [width, height, bits] of [
    [20_000, 20_000, 1],
    [10_000, 10_000, 8],
  ] as const)
    it(`an A4 page drawing a ${width} × ${height} image of ${bits} bit(s): PdfTooLargeError, nothing decoded`, async () => {
      const outcome = await renderFirstPage(await imageBombPdf(width, height, bits));
      assert.ok(
        outcome instanceof PdfTooLargeError,
        Buffer.isBuffer(outcome) ? `rendered: a PNG of ${outcome.length} bytes` : String(outcome),
      );
      assert.equal(
        outcome.message,
        `page 1 draws an image of more than ${MAX_IMAGE_PIXELS} pixels, which is not decoded`,
      );
    });

  it('a page scanned at 300 dpi (an A4 image of 8.7 megapixels) renders as before', async () => {
    const png = await renderFirstPage(imagePdf([drawPage(INVOICE_LINES, 300)]));
    assert.ok(Buffer.isBuffer(png), String(png));
  });
});
