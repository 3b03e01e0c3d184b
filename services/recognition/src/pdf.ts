/** PDFs: page count, the text layer per page, and pages rasterised for OCR (pdfjs-dist legacy build). */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { withTimeout } from '@docflow/timing';
import { createCanvas } from '@napi-rs/canvas';
import type { PDFDocumentProxy, TextItem } from 'pdfjs-dist/types/src/display/api';
import { encodeGreyPng, rgbaToGrey } from './grey-png';

/** 300 dpi: what tesseract reads best (ocr.md); a PDF user unit is 1/72 inch. */
export const OCR_DPI = 300;
/** A3 at 300 dpi; a larger page is rendered at a lower resolution so one page cannot exhaust memory. */
const MAX_RENDER_PIXELS = 35_000_000;
/** A page with fewer visible characters than this in its text layer is treated as a scan. */
const MIN_TEXT_LAYER_CHARS = 8;
const DEFAULT_TIMEOUT_MS = 30_000;

/** The bytes are not a PDF pdf.js can read (corrupt, truncated, encrypted, ...). */
export class PdfUnreadableError extends Error {
  override readonly name = 'PdfUnreadableError';
}

export interface PdfOptions {
  /** Bound on opening the document and on each page operation. Default 30 s. */
  timeoutMs?: number;
}

export interface PdfFile {
  readonly pageCount: number;
  /** The text layer of a page (0-based), lines separated by `\n`; empty for a scanned page. */
  pageText(pageIdx: number): Promise<string>;
  /** The page as an 8-bit grey PNG at `dpi` (lowered for pages larger than A3). */
  renderPage(pageIdx: number, dpi?: number): Promise<Buffer>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
// pdf.js wants a URL-ish string ending in a slash; without the standard fonts text renders wrong (ocr.md).
const STANDARD_FONT_DATA_URL = `${join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** Whether a page's text layer holds enough text to skip OCR. */
export function hasTextLayer(text: string): boolean {
  return text.replace(/\s+/g, '').length >= MIN_TEXT_LAYER_CHARS;
}

/**
 * Opens a PDF held in memory. Rejects with PdfUnreadableError when pdf.js cannot read it, and every
 * page operation of the result rejects with PdfUnreadableError on a broken page.
 */
export async function openPdf(bytes: Uint8Array, options: PdfOptions = {}): Promise<PdfFile> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Loaded on first use: the legacy build is the one that runs on Node 20 (ocr.md).
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({
    // pdf.js may transfer (detach) the buffer it is given: hand it a copy.
    data: new Uint8Array(bytes),
    standardFontDataUrl: STANDARD_FONT_DATA_URL,
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0,
  });
  let doc: PDFDocumentProxy;
  try {
    doc = await withTimeout(task.promise, timeoutMs, 'opening the PDF', () => void task.destroy());
  } catch (err) {
    await task.destroy();
    throw unreadable(err);
  }

  const guarded = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await withTimeout(work(), timeoutMs, what);
    } catch (err) {
      throw unreadable(err);
    }
  };

  return {
    pageCount: doc.numPages,
    pageText: (pageIdx) =>
      guarded(`reading the text of page ${pageIdx}`, async () => {
        const page = await doc.getPage(pageIdx + 1);
        const content = await page.getTextContent();
        page.cleanup();
        return joinTextItems(content.items.filter((i): i is TextItem => 'str' in i));
      }),
    renderPage: (pageIdx, dpi = OCR_DPI) =>
      guarded(`rendering page ${pageIdx}`, async () => {
        const page = await doc.getPage(pageIdx + 1);
        const natural = page.getViewport({ scale: dpi / 72 });
        const shrink = Math.min(1, Math.sqrt(MAX_RENDER_PIXELS / (natural.width * natural.height)));
        const viewport = page.getViewport({ scale: (dpi / 72) * shrink });
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
        await page.render(params).promise;
        page.cleanup();
        return encodeGreyPng(
          rgbaToGrey(ctx.getImageData(0, 0, width, height).data, width, height),
          width,
          height,
        );
      }),
    close: () => doc.destroy(),
  };
}

/** Items on one baseline are concatenated (pdf.js inserts the spaces it detects); a new line starts a row. */
function joinTextItems(items: TextItem[]): string {
  let text = '';
  let lastY: number | undefined;
  const endLine = () => {
    if (text !== '' && !text.endsWith('\n')) text += '\n';
  };
  for (const item of items) {
    const y = item.transform[5] as number;
    if (lastY !== undefined && y !== lastY) endLine();
    text += item.str;
    if (item.hasEOL) endLine();
    lastY = y;
  }
  return text.trim();
}

function unreadable(err: unknown): PdfUnreadableError {
  if (err instanceof PdfUnreadableError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new PdfUnreadableError(`the PDF cannot be read: ${message}`, { cause: err });
}
