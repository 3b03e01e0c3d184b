/**
 * PDFs in worker threads: the main thread stays free while pdf.js works, and the bounds it sets (declared
 * page size, heap, wall time) end a hostile file with its reason and never cost the next file.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TimeoutError } from '@docflow/timing';
import { loadImage } from '@napi-rs/canvas';
import { PdfTooLargeError, PdfUnreadableError, renderDpi } from './pdf';
import { openPdfInWorker } from './pdf-thread';
import { layoutText } from './reading-order';
import { drawPage, imagePdf, textPdf } from './testing/fixtures';
import { deepPageTreePdf, hugePagePdf } from './testing/hostile';
import { INVOICE_LINES } from './testing/invoice-form';

/** The bound for /healthz, applied to this process's own event loop. */
const LOOP_BOUND_MS = 2000;

/** The longest stretch the event loop went without running a timer while `work` ran. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ outcome: T | Error; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 50);
  try {
    const outcome = await work().catch((err: Error) => err);
    return { outcome, stallMs: Math.max(stallMs, performance.now() - last) };
  } finally {
    clearInterval(ticker);
  }
}

/** Opens `bytes` in a thread, renders page 1, and closes it again. */
async function renderFirstPage(bytes: Uint8Array, options = {}): Promise<Buffer> {
  const pdf = await openPdfInWorker(bytes, options);
  try {
    return await pdf.renderPage(0);
  } finally {
    await pdf.close();
  }
}

describe('openPdfInWorker', () => {
  it('reads the text layer and renders a scanned page as the in-thread reader does', async () => {
    const text = await openPdfInWorker(textPdf([INVOICE_LINES]));
    try {
      assert.equal(text.pageCount, 1);
      assert.equal(layoutText(await text.pageLayout(0)), INVOICE_LINES.map((l) => l.text).join('\n'));
    } finally {
      await text.close();
    }
    const image = await loadImage(await renderFirstPage(imagePdf([drawPage(INVOICE_LINES, 100)])));
    assert.deepEqual([image.width, image.height], [2480, 3509]);
  });

  it('a page tree 400,000 levels deep: too large for the thread’s heap; the event loop is never held', async () => {
    const deep = deepPageTreePdf(400_000);
    // The heap bound is what this is about: the time bound is set out of its way on a busy machine.
    const { outcome, stallMs } = await longestStall(() => renderFirstPage(deep, { opTimeoutMs: 600_000 }));
    assert.ok(outcome instanceof PdfTooLargeError, String(outcome));
    assert.match(outcome.message, /needs more than 256 MiB of memory/);
    assert.ok(stallMs < LOOP_BOUND_MS, `the event loop stalled ${Math.round(stallMs)} ms`);
  });

  it('blank pages of 200 × 200 inches: refused from the page box, before anything is rendered', async () => {
    const { outcome, stallMs } = await longestStall(() => renderFirstPage(hugePagePdf(16, 200)));
    assert.ok(outcome instanceof PdfTooLargeError, String(outcome));
    assert.match(outcome.message, /page 1 is 200 × 200 inches/);
    assert.ok(stallMs < LOOP_BOUND_MS, `the event loop stalled ${Math.round(stallMs)} ms`);
  });

  it('an operation over its bound ends the thread with a TimeoutError; the next file gets a fresh one', async () => {
    await assert.rejects(
      openPdfInWorker(deepPageTreePdf(100_000), { opTimeoutMs: 100 }),
      (err: Error) =>
        err instanceof TimeoutError && /opening the PDF took longer than 100 ms/.test(err.message),
    );
    const pdf = await openPdfInWorker(textPdf([INVOICE_LINES]));
    try {
      assert.match(layoutText(await pdf.pageLayout(0)), /^INVOICE/);
    } finally {
      await pdf.close();
    }
  });

  it('a file past its deadline is refused without taking a thread', async () => {
    const late = await openPdfInWorker(textPdf([INVOICE_LINES]), { deadline: Date.now() - 1 }).catch(
      (err: Error) => err,
    );
    assert.ok(late instanceof TimeoutError, String(late));
    assert.match(late.message, /took longer than its time limit/);
  });

  it('a corrupt PDF → PdfUnreadableError, and its thread serves the next file', async () => {
    await assert.rejects(openPdfInWorker(Buffer.from('%PDF-1.7\nnot a pdf at all')), PdfUnreadableError);
    const pdf = await openPdfInWorker(textPdf([INVOICE_LINES]));
    await pdf.close();
  });
});

describe('renderDpi: the resolution from the declared page box', () => {
  const pt = (inches: number) => inches * 72;
  it('A4 and A3 at 300 dpi', () => {
    assert.equal(renderDpi({ width: 595, height: 842 }, 0), 300);
    assert.equal(renderDpi({ width: 842, height: 1191 }, 0), 300);
  });
  it('A0 at about 150 dpi, within the pixel bound', () => {
    const dpi = renderDpi({ width: 2384, height: 3370 }, 0);
    assert.ok(dpi >= 150 && dpi < 151, String(dpi));
  });
  it('200 × 200 inches → PdfTooLargeError naming the page', () => {
    assert.throws(() => renderDpi({ width: pt(200), height: pt(200) }, 3), /page 4 is 200 × 200 inches/);
  });
});
