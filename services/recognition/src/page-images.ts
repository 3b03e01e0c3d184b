/**
 * A recognised page as a PNG for a person checking recognition beside it (issue 33): a PDF page rendered
 * at PAGE_IMAGE_DPI in the PDF thread, an image converted by tesseract in its worker (nothing is decoded
 * on the main thread, issue 29). Rendered once: the PNG goes to the blob store and the local database
 * remembers its key, so later requests stream it.
 */
import { Readable } from 'node:stream';
import { BlobNotFound, type BlobStore } from '@docflow/blobstore';
import { readFileRoute } from '@docflow/contracts';
import type { LocalDb } from '@docflow/kit/eventsourcing';
import { type CallerClient, problems } from '@docflow/kit/http';
import { TimeoutError } from '@docflow/timing';
import { sniffFileKind } from './file-kind';
import { OcrImageError, OcrOverloadedError, type OcrPool, OcrUnavailableError } from './ocr-pool';
import { PdfTooLargeError, PdfUnreadableError } from './pdf';
import { openPdfInWorker } from './pdf-thread';
import { DEFAULT_MAX_BYTES, readAll } from './recognize-file';

/** Enough to read a page on a screen; 100 dpi makes an A4 page 827 × 1170 pixels. */
export const PAGE_IMAGE_DPI = 100;
/** Bound on rendering one page image, thread start included. */
const RENDER_TIMEOUT_MS = 60_000;

export interface PageImagesDeps {
  db: LocalDb;
  blobs: BlobStore;
  /** The recognition OCR pool, started on first use. */
  pool: () => Promise<OcrPool>;
}

/** A page's PNG (see the module comment); `files` reads the file as the caller. */
export type PageImage = (fileId: string, pageIdx: number, files: CallerClient) => Promise<Readable>;

export function pageImages(deps: PageImagesDeps): PageImage {
  const { db, blobs } = deps;
  db.exec(`
    CREATE TABLE IF NOT EXISTS recognition_page_images (
      file_id TEXT NOT NULL,
      page_idx INTEGER NOT NULL,
      blob_key TEXT NOT NULL,
      PRIMARY KEY (file_id, page_idx)
    );
  `);
  const find = db.prepare<[string, number], { blob_key: string }>(
    'SELECT blob_key FROM recognition_page_images WHERE file_id = ? AND page_idx = ?',
  );
  const remember = db.prepare<[string, number, string]>(
    'INSERT OR REPLACE INTO recognition_page_images (file_id, page_idx, blob_key) VALUES (?, ?, ?)',
  );

  return async function pageImage(fileId, pageIdx, files) {
    const kept = find.get(fileId, pageIdx);
    if (kept) {
      try {
        return await blobs.get(kept.blob_key);
      } catch (err) {
        // Gone from the blob store: rendered again below.
        if (!(err instanceof BlobNotFound)) throw err;
      }
    }
    const res = await files.call(readFileRoute, { params: { fileId } });
    if (!res.body) throw problems.unavailable(`the files service sent no content for file ${fileId}`);
    const bytes = await readAll(res.body as unknown as AsyncIterable<Uint8Array>, DEFAULT_MAX_BYTES);
    const png = await render(bytes, pageIdx, deps.pool).catch(asProblem);
    const { key } = await blobs.put(Readable.from([png]));
    remember.run(fileId, pageIdx, key);
    return Readable.from([png]);
  };
}

async function render(bytes: Uint8Array, pageIdx: number, pool: () => Promise<OcrPool>): Promise<Buffer> {
  const kind = sniffFileKind(bytes);
  if (kind !== 'pdf') {
    if (!kind || pageIdx > 0) throw problems.notFound('the file has no such page');
    return (await pool()).toPng(bytes);
  }
  const pdf = await openPdfInWorker(bytes, { deadline: Date.now() + RENDER_TIMEOUT_MS });
  try {
    if (pageIdx >= pdf.pageCount) throw problems.notFound('the file has no such page');
    return await pdf.renderPage(pageIdx, PAGE_IMAGE_DPI);
  } finally {
    await pdf.close();
  }
}

function asProblem(err: unknown): never {
  if (err instanceof PdfUnreadableError || err instanceof PdfTooLargeError || err instanceof OcrImageError)
    throw problems.nothingChanged(`the page cannot be rendered: ${err.message}`);
  if (err instanceof TimeoutError || err instanceof OcrOverloadedError || err instanceof OcrUnavailableError)
    throw problems.unavailable(`the page cannot be rendered now: ${err.message}`);
  throw err;
}
