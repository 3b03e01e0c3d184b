/**
 * Memory outside a PDF thread's JS heap is bounded (issue 29): pdf.js checks an image's own declared
 * size but decodes its soft mask at whatever size the mask declares, into typed arrays the heap bound
 * does not count. A 141 KB PDF drawing a 100 × 100 image with a 12000 × 12000 8-bit `/SMask` rendered
 * and took the process to about 2 GB. Now a mask declared plainly is refused before pdf.js parses the
 * file (pdf-mask-size.ts), and one it resolves otherwise is stopped by the memory watch
 * (pdf-memory-watch.ts), which terminates the thread past its bound.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_IMAGE_PIXELS } from './image-header';
import { PdfTooLargeError } from './pdf';
import { DEFAULT_PDF_MEMORY_MIB } from './pdf-memory-watch';
import { openPdfInWorker } from './pdf-thread';
import { softMaskBombPdf } from './testing/hostile';

/** Opens `bytes` in a thread and renders page 1: its PNG, or why not. */
async function renderFirstPage(bytes: Uint8Array): Promise<Buffer | Error> {
  const pdf = await openPdfInWorker(bytes).catch((err: Error) => err);
  if (pdf instanceof Error) return pdf;
  try {
    return await pdf.renderPage(0).catch((err: Error) => err);
  } finally {
    await pdf.close();
  }
}

function assertTooLarge(outcome: Buffer | Error, message: string): void {
  assert.ok(
    outcome instanceof PdfTooLargeError,
    Buffer.isBuffer(outcome) ? `rendered: a PNG of ${outcome.length} bytes` : String(outcome),
  );
  assert.equal(outcome.message, message);
}

describe('a PDF is bounded in the memory it takes outside the JS heap', () => {
  it('an image with a 12000 × 12000 soft mask: PdfTooLargeError naming the mask, before pdf.js reads the file', async () => {
    assertTooLarge(
      await renderFirstPage(await softMaskBombPdf(12_000)),
      `the PDF has an image mask (object 6) of 12000 × 12000 pixels, more than ${MAX_IMAGE_PIXELS}, which is not decoded`,
    );
  });

  it('the same mask with its size in indirect objects: the memory watch stops the render, PdfTooLargeError naming the bound', async () => {
    assertTooLarge(
      await renderFirstPage(await softMaskBombPdf(12_000, 'reference')),
      `rendering page 1 needs more than ${DEFAULT_PDF_MEMORY_MIB} MiB of memory outside the JS heap`,
    );
  });

  it('the next PDF gets a fresh thread and renders, its mask within the bound', async () => {
    assert.ok(Buffer.isBuffer(await renderFirstPage(await softMaskBombPdf(100))));
  });
});
