/**
 * What a PDF operation takes outside its thread's JS heap is bounded (issue 29): pdf.js checks an
 * image's own declared size but decodes its soft mask at whatever size the mask declares, into typed
 * arrays the heap bound does not count. A 141 KB PDF drawing a 100 × 100 image with a 12000 × 12000
 * 8-bit `/SMask` rendered and took the process to about 2 GB; now the main thread's memory watch
 * terminates the thread past the bound and the page fails as too large.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PdfTooLargeError } from './pdf';
import { DEFAULT_PDF_MEMORY_MIB } from './pdf-memory-watch';
import { openPdfInWorker } from './pdf-thread';
import { softMaskBombPdf } from './testing/hostile';

describe('a PDF operation is bounded in the memory it takes outside the JS heap', () => {
  it('a page drawing a 100 × 100 image with a 12000 × 12000 soft mask: PdfTooLargeError naming the bound', async () => {
    const pdf = await openPdfInWorker(await softMaskBombPdf(12_000));
    try {
      const outcome = await pdf.renderPage(0).catch((err: Error) => err);
      assert.ok(
        outcome instanceof PdfTooLargeError,
        Buffer.isBuffer(outcome) ? `rendered: a PNG of ${outcome.length} bytes` : String(outcome),
      );
      assert.equal(
        outcome.message,
        `rendering page 1 needs more than ${DEFAULT_PDF_MEMORY_MIB} MiB of memory outside the JS heap`,
      );
    } finally {
      await pdf.close();
    }
  });

  it('the next PDF gets a fresh thread and renders', async () => {
    const pdf = await openPdfInWorker(await softMaskBombPdf(100));
    try {
      assert.ok(Buffer.isBuffer(await pdf.renderPage(0)));
    } finally {
      await pdf.close();
    }
  });
});
