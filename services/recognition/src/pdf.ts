/**
 * PDFs: page count, the text layer per page, and pages rasterised for OCR (pdfjs-dist legacy build).
 * This runs pdf.js where it is called and cannot be interrupted: recognition calls it only inside a
 * worker thread (pdf-thread.ts), whose time and memory the main thread bounds.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PageLayout } from '@docflow/contracts';
import { createCanvas } from '@napi-rs/canvas';
import type { PDFDocumentProxy, TextItem } from 'pdfjs-dist/types/src/display/api';
import { encodeGreyPng, rgbaToGrey } from './grey-png';
import { MAX_IMAGE_PIXELS } from './image-header';
import { pdfItemWords } from './layout-pdf';
import { oversizedMask } from './pdf-mask-size';
import { pageLayout } from './reading-order';

/** 300 dpi: what tesseract reads best (ocr.md); a PDF user unit is 1/72 inch. */
export const OCR_DPI = 300;
/** A2 at 300 dpi; a larger page is rendered at a lower resolution so one page cannot exhaust memory. */
export const MAX_RENDER_PIXELS = 35_000_000;
/** Below this a page is not rendered: it is larger than about A0 and refused as too large. */
export const MIN_RENDER_DPI = 150;
/** A page with fewer visible characters than this in its text layer is treated as a scan. */
const MIN_TEXT_LAYER_CHARS = 8;

/** The bytes are not a PDF pdf.js can read (corrupt, truncated, encrypted, ...). */
export class PdfUnreadableError extends Error {
  override readonly name = 'PdfUnreadableError';
}
/** A page (by its declared size) or the whole file (by the memory it takes) is beyond the limits. */
export class PdfTooLargeError extends Error {
  override readonly name = 'PdfTooLargeError';
}

export interface PdfFile {
  readonly pageCount: number;
  /** The text layer of a page (0-based): its words in reading order; no line for a scanned page. */
  pageLayout(pageIdx: number): Promise<PageLayout>;
  /**
   * The page as an 8-bit grey PNG at `dpi`, lowered (down to MIN_RENDER_DPI) for pages larger than A2.
   * Rejects with PdfTooLargeError, before rendering anything, for a page that would still exceed
   * MAX_RENDER_PIXELS at MIN_RENDER_DPI.
   */
  renderPage(pageIdx: number, dpi?: number): Promise<Buffer>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
// pdf.js wants a URL-ish string ending in a slash; without the standard fonts text renders wrong (ocr.md).
const STANDARD_FONT_DATA_URL = `${join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/**
 * pdf.js says it dropped an image over `maxImageSize` only by a warning (console.warn at verbosity 1 and
 * up): it is counted, and pdf.js's other warnings stay quiet as at verbosity 0. Installed by the first
 * openPdf, so only where PDFs are read (the PDF threads); one file is open per thread at a time
 * (pdf-thread.ts), so a count that grows during a render is that render's.
 */
const PDFJS_WARNINGS = 1;
const IMAGE_REMOVED = 'Warning: Image exceeded maximum allowed size and was removed.';
let removedImages = 0;
let countingRemovedImages = false;
function countRemovedImages(): void {
  if (countingRemovedImages) return;
  countingRemovedImages = true;
  const warn = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    if (args[0] === IMAGE_REMOVED) removedImages++;
    else if (!(typeof args[0] === 'string' && args[0].startsWith('Warning: '))) warn(...args);
  };
}

/** Whether a page's text layer holds enough text to skip OCR. */
export function hasTextLayer(text: string): boolean {
  return text.replace(/\s+/g, '').length >= MIN_TEXT_LAYER_CHARS;
}

/**
 * Opens a PDF held in memory. Rejects with PdfUnreadableError when pdf.js cannot read it, or with
 * PdfTooLargeError when an image's mask declares more than MAX_IMAGE_PIXELS (pdf.js bounds only the
 * image itself); every page operation of the result rejects with PdfUnreadableError on a broken page.
 */
export async function openPdf(bytes: Uint8Array): Promise<PdfFile> {
  const mask = oversizedMask(bytes, MAX_IMAGE_PIXELS);
  if (mask)
    throw new PdfTooLargeError(
      `the PDF has an image mask (object ${mask.object}) of ${mask.width} × ${mask.height} pixels, ` +
        `more than ${MAX_IMAGE_PIXELS}, which is not decoded`,
    );
  // Loaded on first use: the legacy build is the one that runs on Node 20 (ocr.md).
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  countRemovedImages();
  const task = getDocument({
    // pdf.js may transfer (detach) the buffer it is given: hand it a copy.
    data: new Uint8Array(bytes),
    standardFontDataUrl: STANDARD_FONT_DATA_URL,
    useSystemFonts: false,
    isEvalSupported: false,
    // An image above the bound is dropped before it is decoded; the warning tells renderPage (below).
    maxImageSize: MAX_IMAGE_PIXELS,
    verbosity: PDFJS_WARNINGS,
  });
  let doc: PDFDocumentProxy;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy();
    throw unreadable(err);
  }

  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw err instanceof PdfTooLargeError ? err : unreadable(err);
    }
  };

  return {
    pageCount: doc.numPages,
    pageLayout: (pageIdx) =>
      guarded(async () => {
        const page = await doc.getPage(pageIdx + 1);
        const viewport = page.getViewport({ scale: 1 });
        const content = await page.getTextContent();
        page.cleanup();
        const items = content.items.filter((i): i is TextItem => 'str' in i);
        return pageLayout(pdfItemWords(items, viewport.transform), {
          pageIdx,
          width: viewport.width,
          height: viewport.height,
          source: 'text-layer',
        });
      }),
    renderPage: (pageIdx, dpi = OCR_DPI) =>
      guarded(async () => {
        const page = await doc.getPage(pageIdx + 1);
        const viewport = page.getViewport({
          scale: renderDpi(page.getViewport({ scale: 1 }), pageIdx, dpi) / 72,
        });
        const width = Math.ceil(viewport.width);
        const height = Math.ceil(viewport.height);
        const canvas = createCanvas(width, height);
        const ctx = canvas.getContext('2d');
        ctx.fillStyle = '#ffffff';
        ctx.fillRect(0, 0, width, height);
        // pdf.js types name the DOM canvas; @napi-rs/canvas is the Node implementation it drives.
        const params = { canvas, canvasContext: ctx, viewport } as unknown as Parameters<
          typeof page.render
        >[0];
        const removedBefore = removedImages;
        await page.render(params).promise;
        page.cleanup();
        // A page without its image would be read as blank: the file is refused instead.
        if (removedImages > removedBefore)
          throw new PdfTooLargeError(
            `page ${pageIdx + 1} draws an image of more than ${MAX_IMAGE_PIXELS} pixels, which is not decoded`,
          );
        return encodeGreyPng(
          rgbaToGrey(ctx.getImageData(0, 0, width, height).data, width, height),
          width,
          height,
        );
      }),
    close: () => doc.destroy(),
  };
}

/**
 * The resolution a page is rendered at: `dpi`, or lower for a page whose box (CropBox within MediaBox,
 * as pdf.js reads it; `size` in points) would exceed MAX_RENDER_PIXELS. Decided from the declared size
 * alone, so an oversized page costs nothing.
 */
export function renderDpi(size: { width: number; height: number }, pageIdx: number, dpi = OCR_DPI): number {
  const squareInches = (size.width / 72) * (size.height / 72);
  const fitting = Math.min(dpi, Math.sqrt(MAX_RENDER_PIXELS / squareInches));
  // A resolution asked for below MIN_RENDER_DPI (a page image for the screen) is not lowered.
  if (!(fitting >= Math.min(dpi, MIN_RENDER_DPI)))
    throw new PdfTooLargeError(
      `page ${pageIdx + 1} is ${Math.round(size.width / 72)} × ${Math.round(size.height / 72)} inches; ` +
        `pages are rendered up to ${MAX_RENDER_PIXELS} pixels at ${MIN_RENDER_DPI} dpi at least (about A0)`,
    );
  return fitting;
}

function unreadable(err: unknown): PdfUnreadableError {
  if (err instanceof PdfUnreadableError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new PdfUnreadableError(`the PDF cannot be read: ${message}`, { cause: err });
}
