/**
 * A bounded pool of warm tesseract.js workers with a bounded queue (DESIGN.md, "Ports": OCR).
 *
 * Back-pressure: `recognize()` waits for a free worker while the queue has room; when `maxQueue` jobs
 * are already waiting it rejects at once with OcrOverloadedError (the caller answers 503 and retries
 * later), and a job that waited `queueTimeoutMs` without a worker rejects with the same error.
 * A page that takes longer than `pageTimeoutMs` rejects with TimeoutError and its worker is replaced
 * (as is a worker whose thread crashes); a worker that fails to start is not retried.
 */

import { availableParallelism } from 'node:os';
import type { Worker as ThreadWorker } from 'node:worker_threads';
import { TimeoutError, withTimeout } from '@docflow/timing';
import { createCanvas } from '@napi-rs/canvas';
import { createWorker, OEM, PSM, type RecognizeOptions, type Worker } from 'tesseract.js';
import { encodeGreyPng, rgbaToGrey } from './grey-png';
import { DEFAULT_LANGUAGES, langPathFor, type OcrLanguage } from './languages';
import { ocrWords } from './layout-ocr';
import { registerPageFont } from './page-font';
import type { Segmentation } from './page-segmentation';
import type { PlacedWord } from './reading-order';

export interface OcrPoolOptions {
  /** Workers, one page each at a time. Default: the number of cores (more than that is slower, ocr.md). */
  size?: number;
  /** Jobs that may wait for a worker; one more is refused. Default: 8 per worker. */
  maxQueue?: number;
  /** Bound on one page's OCR. Default 60 s. */
  pageTimeoutMs?: number;
  /** Bound on a job's wait for a worker. Default 120 s. */
  queueTimeoutMs?: number;
  /** Bound on starting and warming up one worker (a failed language load can hang, ocr.md). Default 30 s. */
  createTimeoutMs?: number;
  languages?: OcrLanguage[];
}

export interface OcrResult {
  text: string;
  /** Every word read, with its box (pixels of the image) and confidence. */
  words: PlacedWord[];
  /** Tesseract's mean word confidence, 0–100. */
  confidence: number;
  /** Time the worker spent on the page. */
  ms: number;
}

export interface OcrPoolStats {
  size: number;
  ready: number;
  busy: number;
  queued: number;
}

export interface OcrPool {
  readonly languages: readonly OcrLanguage[];
  /**
   * OCR of one image (PNG, JPEG, TIFF, BMP, WebP bytes), segmented as asked (page-segmentation.ts;
   * default `auto`). Rejects with the errors below, never crashes.
   */
  recognize(image: Uint8Array, segmentation?: Segmentation): Promise<OcrResult>;
  /** The image as a colour PNG (a TIFF: its first page), decoded by tesseract in its worker, with no OCR. */
  toPng(image: Uint8Array): Promise<Buffer>;
  stats(): OcrPoolStats;
  /** Stops every worker; waiting and running jobs reject with OcrUnavailableError. */
  terminate(): Promise<void>;
}

/** The queue is full, or the job waited too long for a worker: retry later. */
export class OcrOverloadedError extends Error {
  override readonly name = 'OcrOverloadedError';
}
/** Tesseract could not read the image (corrupt, truncated, not an image). */
export class OcrImageError extends Error {
  override readonly name = 'OcrImageError';
}
/** No worker can run the job: the pool was terminated, or workers fail to start. */
export class OcrUnavailableError extends Error {
  override readonly name = 'OcrUnavailableError';
}

const DEFAULT_PAGE_TIMEOUT_MS = 60_000;
const DEFAULT_QUEUE_TIMEOUT_MS = 120_000;
const DEFAULT_CREATE_TIMEOUT_MS = 30_000;
const QUEUE_PER_WORKER = 8;
const TERMINATE_TIMEOUT_MS = 5_000;

type SlotState = 'starting' | 'ready' | 'busy' | 'failed' | 'stopped';
interface Slot {
  state: SlotState;
  worker?: Worker;
  /** Ends the running job early (worker crashed or pool terminated). */
  abort?: (err: Error) => void;
}
interface Job {
  /** What the worker does with the job's image. */
  work: (worker: Worker) => Promise<unknown>;
  resolve: (result: never) => void;
  reject: (err: Error) => void;
  queueTimer: NodeJS.Timeout;
}

/**
 * Starts `size` workers, warms each up with one small page, and resolves when all are ready.
 * Rejects with OcrUnavailableError when a worker cannot start (and stops the ones that did).
 *
 * @example
 * const pool = await createOcrPool({ size: 2 });
 * const { text, confidence } = await pool.recognize(pngBytes);
 * await pool.terminate();
 */
export async function createOcrPool(options: OcrPoolOptions = {}): Promise<OcrPool> {
  const size = Math.max(1, options.size ?? availableParallelism());
  const maxQueue = options.maxQueue ?? size * QUEUE_PER_WORKER;
  const pageTimeoutMs = options.pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS;
  const queueTimeoutMs = options.queueTimeoutMs ?? DEFAULT_QUEUE_TIMEOUT_MS;
  const createTimeoutMs = options.createTimeoutMs ?? DEFAULT_CREATE_TIMEOUT_MS;
  const languages = [...(options.languages ?? DEFAULT_LANGUAGES)];
  const langPath = langPathFor(languages);

  const slots: Slot[] = Array.from({ length: size }, () => ({ state: 'starting' }));
  const queue: Job[] = [];
  let closed = false;

  /** A worker that crashed or overran its page is stopped and a fresh one started in its slot. */
  const replace = (slot: Slot, worker: Worker) => {
    if (slot.worker !== worker) return;
    slot.worker = undefined;
    void stopWorker(worker).catch(() => undefined);
    if (!closed) void start(slot).catch(() => undefined);
  };

  const start = async (slot: Slot): Promise<void> => {
    slot.state = 'starting';
    try {
      const worker = await startWorker(languages, langPath, createTimeoutMs);
      if (closed) {
        slot.state = 'stopped';
        await worker.terminate();
        return;
      }
      slot.worker = worker;
      slot.state = 'ready';
      // tesseract.js does not listen to its thread's 'error' event; unheard, a crash inside the
      // thread would become an uncaught 'error' event in this process. A thread that ends by itself
      // would leave its page waiting for the page timeout.
      const lost = (why: string) => {
        const abort = slot.abort;
        replace(slot, worker);
        abort?.(new OcrUnavailableError(`the OCR worker ${why}`));
      };
      threadOf(worker)
        ?.on('error', (err) => lost(`crashed: ${err.message}`))
        .on('exit', (code) => lost(`exited with code ${code}`));
    } catch (err) {
      // Not retried: a worker that cannot start once (missing data, no memory) will not start on demand.
      slot.state = 'failed';
      throw err;
    } finally {
      dispatch();
    }
  };

  const dropFromQueue = (job: Job): boolean => {
    const at = queue.indexOf(job);
    if (at >= 0) queue.splice(at, 1);
    return at >= 0;
  };

  const run = (slot: Slot, job: Job, worker: Worker) => {
    slot.state = 'busy';
    let settled = false;
    const finish = (err: Error | undefined, result?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(pageTimer);
      slot.abort = undefined;
      if (err) job.reject(err);
      else job.resolve(result as never);
      if (slot.worker === worker) slot.state = 'ready';
      dispatch();
    };
    slot.abort = (err) => finish(err);
    const pageTimer = setTimeout(() => {
      // The page keeps the worker busy for as long as it runs: stop it and start a fresh one.
      replace(slot, worker);
      finish(new TimeoutError(`OCR of a page took longer than ${pageTimeoutMs} ms`));
    }, pageTimeoutMs);
    job.work(worker).then(
      (result) => finish(undefined, result),
      (err: unknown) => finish(new OcrImageError(`the image cannot be read: ${String(err)}`)),
    );
  };

  const dispatch = () => {
    if (closed) return;
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (slot.state !== 'ready' || !slot.worker) continue;
      const job = queue.shift()!;
      clearTimeout(job.queueTimer);
      run(slot, job, slot.worker);
    }
    // No worker runs and none can start: waiting would only end in the queue timeout.
    if (slots.every((s) => s.state === 'failed'))
      for (const job of queue.splice(0)) {
        clearTimeout(job.queueTimer);
        job.reject(new OcrUnavailableError('no OCR worker can start'));
      }
  };

  const started = await Promise.allSettled(slots.map((slot) => start(slot)));
  const failure = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) {
    closed = true;
    await Promise.allSettled(slots.map((s) => s.worker?.terminate()));
    throw new OcrUnavailableError(`an OCR worker did not start: ${errorMessage(failure.reason)}`, {
      cause: failure.reason,
    });
  }

  /** Queues one job for a worker (see the back-pressure in the module comment). */
  const submit = <T>(work: (worker: Worker) => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new OcrUnavailableError('the OCR pool was terminated'));
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        work,
        resolve: resolve as (result: never) => void,
        reject,
        queueTimer: setTimeout(() => {
          dropFromQueue(job);
          reject(new OcrOverloadedError(`no OCR worker was free within ${queueTimeoutMs} ms`));
        }, queueTimeoutMs),
      };
      queue.push(job);
      dispatch();
      if (queue.length > maxQueue && dropFromQueue(job)) {
        clearTimeout(job.queueTimer);
        reject(new OcrOverloadedError(`${maxQueue} pages are waiting for OCR already`));
      }
    });
  };

  return {
    languages,
    recognize: (image, segmentation = 'auto') =>
      submit(async (worker): Promise<OcrResult> => {
        const started = performance.now();
        // Tesseract parameters given with the job hold for that job only (tesseract.js restores them
        // after); its RecognizeOptions type lists only its own options.
        const parameters = { tessedit_pageseg_mode: PSM_OF[segmentation] } as Partial<RecognizeOptions>;
        const { data } = await worker.recognize(image, parameters, { text: true, blocks: true });
        return {
          text: data.text,
          words: ocrWords(data.blocks ?? []),
          confidence: data.confidence,
          ms: performance.now() - started,
        };
      }),
    toPng: (image) =>
      submit(async (worker) => {
        // Only image outputs asked for: tesseract.js skips recognition.
        const { data } = await worker.recognize(image, {}, { text: false, imageColor: true });
        return Buffer.from(data.imageColor!.slice(data.imageColor!.indexOf(',') + 1), 'base64');
      }),
    stats: () => ({
      size,
      ready: slots.filter((s) => s.state === 'ready').length,
      busy: slots.filter((s) => s.state === 'busy').length,
      queued: queue.length,
    }),
    async terminate() {
      if (closed) return;
      closed = true;
      for (const job of queue.splice(0)) {
        clearTimeout(job.queueTimer);
        job.reject(new OcrUnavailableError('the OCR pool was terminated'));
      }
      await Promise.allSettled(
        slots.map(async (slot) => {
          slot.abort?.(new OcrUnavailableError('the OCR pool was terminated'));
          const worker = slot.worker;
          slot.worker = undefined;
          slot.state = 'stopped';
          if (worker) await withTimeout(stopWorker(worker), TERMINATE_TIMEOUT_MS, 'stopping an OCR worker');
        }),
      );
    },
  };
}

/** One worker with the options measured in ocr.md, warmed up: its first page is slow (1–2 s). */
async function startWorker(languages: OcrLanguage[], langPath: string, timeoutMs: number): Promise<Worker> {
  let loadError: unknown;
  const creating = createWorker(languages, OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    // 'none': else tesseract.js writes the 5 MB trained data into the working directory and reads it back.
    cacheMethod: 'none',
    // Without a handler a rejected job also throws inside tesseract.js's message listener, an uncaught
    // exception; the rejection itself reaches the caller through the job's promise.
    errorHandler: (err: unknown) => {
      loadError ??= err;
    },
  });
  // A worker whose language load fails never resolves createWorker (and cannot be stopped from here).
  const worker = await withTimeout(creating, timeoutMs, 'starting an OCR worker').catch((err: unknown) => {
    throw loadError
      ? new OcrUnavailableError(`starting an OCR worker failed: ${errorMessage(loadError)}`)
      : err;
  });
  try {
    await withTimeout(worker.recognize(warmUpImage()), timeoutMs, 'warming up an OCR worker');
  } catch (err) {
    await worker.terminate().catch(() => undefined);
    throw err;
  }
  return worker;
}

const PSM_OF: Record<Segmentation, PSM> = { auto: PSM.AUTO, block: PSM.SINGLE_BLOCK };

let warmUp: Buffer | undefined;

/** A small line of text, enough to load the recognition model before the first real page. */
function warmUpImage(): Buffer {
  if (warmUp) return warmUp;
  const family = registerPageFont();
  const [width, height] = [900, 120];
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000000';
  ctx.font = `48px ${family}`;
  ctx.fillText('Warm up: Invoice 0123456789', 20, 80);
  warmUp = encodeGreyPng(
    rgbaToGrey(ctx.getImageData(0, 0, width, height).data, width, height),
    width,
    height,
  );
  return warmUp;
}

/**
 * tesseract.js posts a job to its thread a tick after `recognize()` is called, and posting to a stopped
 * worker is an unhandled rejection (which ends the process): stop it on the next turn of the event loop.
 */
async function stopWorker(worker: Worker): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await worker.terminate();
}

/** tesseract.js keeps its worker_threads Worker on the object it returns, untyped. */
function threadOf(worker: Worker): ThreadWorker | undefined {
  return (worker as unknown as { worker?: ThreadWorker | null }).worker ?? undefined;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
