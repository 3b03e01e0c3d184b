/**
 * One attachment → its recognised parts (DESIGN.md, "Recognition"): OCR of images and of PDF pages
 * without a text layer (all pages when `idpFrpr`), classification, extraction. A file that cannot be
 * read, or OCR that cannot run, is a returned failure, never a throw.
 */
import {
  type FormDefinition,
  type PageLayout,
  RECOGNIZED_TEXT_MAX_CHARS,
  type RecognizedField,
  type ValuesByTags,
} from '@docflow/contracts';
import { ProblemError, problems } from '@docflow/kit/http';
import { TimeoutError } from '@docflow/timing';
import { type ClassifyOptions, classifyPagesSteps, type PageText } from './classify';
import { extractPartSteps } from './extract-fields';
import { declaredFileKind, type FileKind, sniffFileKind } from './file-kind';
import { declaredImageSize, type ImageSize, MAX_IMAGE_PIXELS } from './image-header';
import { resolveIdpLangs } from './languages';
import { OcrImageError, OcrOverloadedError, type OcrPool, OcrUnavailableError } from './ocr-pool';
import { segmentationFor } from './page-segmentation';
import { inPart } from './part-pages';
import { PatternBudget } from './pattern-steps';
import { patternText } from './patterns';
import { hasTextLayer, PdfTooLargeError, PdfUnreadableError } from './pdf';
import { openPdfInWorker } from './pdf-thread';
import { layoutText, pageLayout } from './reading-order';

export const DEFAULT_MAX_BYTES = 100 * 1024 * 1024;
const DEFAULT_MAX_PAGES = 200;
const DEFAULT_PATTERN_BUDGET_MS = 30_000;
const DEFAULT_FILE_TIMEOUT_MS = 10 * 60_000;
/** The text of a text-layer page is exact: it counts as fully confident. */
const TEXT_LAYER_CONFIDENCE = 100;

export interface Attachment {
  /** The file's bytes, or a stream of them (a Node Readable is one), read up to `maxBytes`. */
  data: Uint8Array | AsyncIterable<Uint8Array>;
  contentType?: string;
  fileName?: string;
}

export interface RecognizeFileOptions extends ClassifyOptions {
  /** OCR languages joined by `+`; default `eng`. Each must be installed and loaded in the pool. */
  idpLangs?: string;
  /** Force OCR of every PDF page, ignoring the text layer. */
  idpFrpr?: boolean;
  /** Default 100 MiB. */
  maxBytes?: number;
  /** Pages of one PDF, default 200. */
  maxPages?: number;
  /** Bound on opening a PDF and on each page's text or rendering; default 30 s. */
  pdfTimeoutMs?: number;
  /** The PDF thread's JS heap, MiB; default 256 (pdf-thread.ts). */
  pdfHeapMiB?: number;
  /** What one PDF operation may add to the process's RSS, MiB; default 1024 (pdf-memory-watch.ts). */
  pdfMemoryMiB?: number;
  /** Wall time of the whole file from the call on: past it no PDF operation runs and no page starts,
   * and the file fails with `timeout` (pages already in OCR end within the pool's page bound). Default
   * 10 minutes. */
  fileTimeoutMs?: number;
  /** Time the recognition forms' patterns may take over the whole file (classification and
   * extraction); default 30 s, then the file fails with `timeout`. */
  patternBudgetMs?: number;
}

/** One recognised part of a file, shaped as the contract's RecoData without its ids and `validated`. */
export interface RecoPart {
  recoForm: { form: null; id: string; name: string };
  pageIdxStart: number;
  pageIdxEnd: number;
  /** `recoFormConfidence`, percent. */
  confidence: number;
  valuesByTags: ValuesByTags;
  /** How each value was found: confidence, raw text, page, box, label. */
  fieldsByTags: Record<string, RecognizedField>;
}

export type RecoFailureReason =
  | 'unsupported-language'
  | 'unsupported-type'
  | 'too-large'
  | 'unreadable'
  | 'timeout'
  | 'overloaded'
  | 'unavailable'
  | 'internal';

export interface RecoFailure {
  ok: false;
  reason: RecoFailureReason;
  detail: string;
}

export interface RecoSuccess {
  ok: true;
  parts: RecoPart[];
  pageCount: number;
  /** Pages that went through OCR (the others used their text layer). */
  ocrPageCount: number;
  /** The pages' text (as patterns read it) joined by line breaks, its first RECOGNIZED_TEXT_MAX_CHARS. */
  text: string;
  /** Every page's words with their boxes, lines in reading order (the text above is read from them). */
  layouts: PageLayout[];
}

export type RecognizeFileResult = RecoSuccess | RecoFailure;

/** A file's failure in a stage: carried to the one place that turns it into a RecoFailure. */
class Failure extends Error {
  constructor(
    readonly reason: RecoFailureReason,
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * Recognises one attachment against the recognition forms of `form`. A form without recognition forms
 * gives no parts and reads nothing.
 *
 * @example
 * const result = await recognizeFile({ data: bytes, contentType: 'application/pdf' }, form, pool, { idpLangs: 'eng' });
 * if (!result.ok) throw recoFailureProblem(result);
 */
export async function recognizeFile(
  file: Attachment,
  form: FormDefinition,
  pool: OcrPool,
  options: RecognizeFileOptions = {},
): Promise<RecognizeFileResult> {
  const deadline = Date.now() + (options.fileTimeoutMs ?? DEFAULT_FILE_TIMEOUT_MS);
  try {
    checkLanguages(options.idpLangs, pool);
    const recoForms = form.recognition?.forms ?? [];
    if (recoForms.length === 0)
      return { ok: true, parts: [], pageCount: 0, ocrPageCount: 0, text: '', layouts: [] };
    const bytes = await readAll(file.data, options.maxBytes ?? DEFAULT_MAX_BYTES);
    const pages = await readPages(bytes, file, pool, { ...options, deadline });
    const budget = new PatternBudget(options.patternBudgetMs ?? DEFAULT_PATTERN_BUDGET_MS);
    const parts: RecoPart[] = [];
    for (const part of await budget.run(classifyPagesSteps(pages, recoForms, options))) {
      const recoForm = recoForms.find((f) => f.id === part.recoFormId)!;
      const partPages = pages.filter((p) => inPart(p.layout.pageIdx, part));
      parts.push({
        recoForm: { form: null, id: recoForm.id, name: recoForm.name },
        pageIdxStart: part.pageIdxStart,
        pageIdxEnd: part.pageIdxEnd,
        confidence: part.confidence,
        ...(await budget.run(extractPartSteps(recoForm, partPages, form.tags))),
      });
    }
    return {
      ok: true,
      parts,
      pageCount: pages.length,
      ocrPageCount: pages.filter((p) => p.ocr).length,
      text: fileText(pages),
      layouts: pages.map((p) => p.layout),
    };
  } catch (err) {
    return toFailure(err);
  }
}

/** The text recognition records of a file: its pages' text as patterns read it, joined, bounded. */
const fileText = (pages: readonly { text: string }[]): string =>
  pages
    .map((p) => p.text)
    .join('\n')
    .slice(0, RECOGNIZED_TEXT_MAX_CHARS);

/**
 * The text of one attachment as recognizeFile records it (text layer, else OCR), without classifying
 * it: what the text backfill reads again for a file recognised before text was kept. Same bounds.
 */
export async function readFileText(
  file: Attachment,
  pool: OcrPool,
  options: RecognizeFileOptions = {},
): Promise<{ ok: true; text: string } | RecoFailure> {
  const deadline = Date.now() + (options.fileTimeoutMs ?? DEFAULT_FILE_TIMEOUT_MS);
  try {
    checkLanguages(options.idpLangs, pool);
    const bytes = await readAll(file.data, options.maxBytes ?? DEFAULT_MAX_BYTES);
    const pages = await readPages(bytes, file, pool, { ...options, deadline });
    return { ok: true, text: fileText(pages) };
  } catch (err) {
    return toFailure(err);
  }
}

/** The problem an HTTP caller answers for a failure. */
export function recoFailureProblem(failure: RecoFailure): ProblemError {
  switch (failure.reason) {
    case 'unsupported-language':
      return problems.badRequest(failure.detail, [{ pointer: 'query.idpLangs', message: failure.detail }]);
    case 'unsupported-type':
      return problems.unsupportedMediaType(failure.detail);
    case 'too-large':
      return problems.tooLarge(failure.detail);
    case 'unreadable':
    case 'timeout':
      return problems.nothingChanged(failure.detail);
    case 'overloaded':
    case 'unavailable':
      return problems.unavailable(failure.detail);
    case 'internal':
      // The detail may name internals: it is for the log, not for the answer.
      return new ProblemError(500, 'internal', 'Internal server error', 'the error was logged');
  }
}

function checkLanguages(idpLangs: string | undefined, pool: OcrPool): void {
  const wanted = resolveIdpLangs(idpLangs);
  const missing = wanted.filter((l) => !pool.languages.includes(l));
  if (missing.length > 0)
    throw new Failure(
      'unsupported-language',
      `OCR language(s) not loaded: ${missing.join(', ')}; loaded: ${pool.languages.join(', ')}`,
    );
}

/** An attachment's bytes, up to `maxBytes` (a Failure past it, or when the stream breaks). */
export async function readAll(data: Attachment['data'], maxBytes: number): Promise<Uint8Array> {
  if (data instanceof Uint8Array) {
    if (data.byteLength > maxBytes) throw tooLarge(maxBytes);
    return data;
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of data) {
      total += chunk.byteLength;
      // Leaving the loop closes the stream: nothing more is read.
      if (total > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof Failure) throw err;
    throw new Failure('unavailable', `the file could not be read: ${message(err)}`);
  }
  return Buffer.concat(chunks, total);
}

/** A page as classification and extraction read it: its layout, and the text made from it (patternText). */
type RecoPage = PageText & { layout: PageLayout; ocr: boolean };
type PageOptions = RecognizeFileOptions & { deadline: number };

function recoPage(layout: PageLayout, confidence: number): RecoPage {
  return { layout, text: patternText(layoutText(layout)), confidence, ocr: layout.source === 'ocr' };
}

/** The page of an image read by OCR, its words in the pixels of the image. */
async function ocrPage(
  image: Uint8Array,
  size: ImageSize,
  pageIdx: number,
  pool: OcrPool,
): Promise<RecoPage> {
  const result = await pool.recognize(image, segmentationFor(size.width));
  const layout = pageLayout(result.words, { pageIdx, ...size, source: 'ocr' });
  return recoPage(layout, result.confidence);
}

async function readPages(
  bytes: Uint8Array,
  file: Attachment,
  pool: OcrPool,
  options: PageOptions,
): Promise<RecoPage[]> {
  const kind = sniffFileKind(bytes);
  if (!kind) {
    const claimed = declaredFileKind(file.contentType, file.fileName);
    if (claimed) throw new Failure('unreadable', `the file is not a readable ${claimed.toUpperCase()}`);
    throw new Failure(
      'unsupported-type',
      `recognition reads PDF, PNG, JPEG and TIFF; ${file.contentType ?? 'this file'} is none of them`,
    );
  }
  if (kind !== 'pdf') {
    const size = checkImageSize(bytes, kind);
    // The bytes go to tesseract as they are: it decodes them inside its worker thread, where a corrupt
    // image is a rejected job. Decoding with @napi-rs/canvas here (to hand tesseract faster grey pixels)
    // was measured to crash the whole process on a corrupt PNG (SIGSEGV). A TIFF gives its first page.
    return [await ocrPage(bytes, size, 0, pool)];
  }
  return pdfPages(bytes, pool, options);
}

/**
 * A decoder allocates for the size the header declares (a 0.6 MB PNG can declare 3.6 gigapixels):
 * that size is checked before tesseract decodes anything.
 */
function checkImageSize(bytes: Uint8Array, kind: Exclude<FileKind, 'pdf'>): ImageSize {
  const size = declaredImageSize(bytes, kind);
  if (!size) throw new Failure('unreadable', `the ${kind.toUpperCase()} header cannot be read`);
  if (size.width * size.height > MAX_IMAGE_PIXELS)
    throw new Failure(
      'too-large',
      `the image declares ${size.width} × ${size.height} pixels; at most ${MAX_IMAGE_PIXELS} are recognised`,
    );
  return size;
}

/**
 * Text layer where there is one; other pages are rendered one by one (in the PDF's worker thread)
 * while the pool OCRs earlier ones.
 */
async function pdfPages(bytes: Uint8Array, pool: OcrPool, options: PageOptions): Promise<RecoPage[]> {
  const pdf = await openPdfInWorker(bytes, {
    opTimeoutMs: options.pdfTimeoutMs,
    heapMiB: options.pdfHeapMiB,
    memoryMiB: options.pdfMemoryMiB,
    deadline: options.deadline,
  });
  try {
    const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    if (pdf.pageCount > maxPages)
      throw new Failure(
        'too-large',
        `the PDF has ${pdf.pageCount} pages; at most ${maxPages} are recognised`,
      );
    const pages: RecoPage[] = [];
    // One file keeps at most as many pages in OCR as the pool has workers, so it never fills the queue alone.
    const window = Math.max(1, pool.stats().size);
    const inFlight = new Set<Promise<void>>();
    let ocrError: unknown;
    for (let idx = 0; idx < pdf.pageCount && ocrError === undefined; idx++) {
      // The PDF thread bounds its own work by the deadline; pages waiting for OCR are bounded here.
      if (Date.now() > options.deadline)
        throw new TimeoutError(`recognising the file took longer than its time limit (at page ${idx + 1})`);
      if (!options.idpFrpr) {
        const page = recoPage(await pdf.pageLayout(idx), TEXT_LAYER_CONFIDENCE);
        if (hasTextLayer(page.text)) {
          pages[idx] = page;
          continue;
        }
      }
      const png = await pdf.renderPage(idx);
      // The PNG pdf.ts rendered: its header is well-formed.
      const size = declaredImageSize(png, 'png')!;
      const job: Promise<void> = ocrPage(png, size, idx, pool).then(
        (page) => {
          pages[idx] = page;
        },
        (err: unknown) => {
          ocrError ??= err;
        },
      );
      inFlight.add(job);
      void job.finally(() => inFlight.delete(job));
      if (inFlight.size >= window) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    if (ocrError !== undefined) throw ocrError;
    return pages;
  } finally {
    await pdf.close();
  }
}

function toFailure(err: unknown): RecoFailure {
  const fail = (reason: RecoFailureReason, detail: string): RecoFailure => ({ ok: false, reason, detail });
  if (err instanceof Failure) return fail(err.reason, err.message);
  if (err instanceof ProblemError && err.status === 400)
    return fail('unsupported-language', err.detail ?? err.title);
  if (err instanceof PdfUnreadableError || err instanceof OcrImageError)
    return fail('unreadable', err.message);
  if (err instanceof PdfTooLargeError) return fail('too-large', err.message);
  if (err instanceof TimeoutError) return fail('timeout', err.message);
  if (err instanceof OcrOverloadedError) return fail('overloaded', err.message);
  if (err instanceof OcrUnavailableError) return fail('unavailable', err.message);
  return fail('internal', `recognition failed: ${message(err)}`);
}

function tooLarge(maxBytes: number): Failure {
  return new Failure('too-large', `the file is larger than ${maxBytes} bytes`);
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
