/**
 * PDFs read in worker threads (pdf-worker.ts), one file per thread at a time: pdf.js parsing and page
 * rendering cannot be interrupted where they run, so they run where the main thread can stop them.
 * The main thread bounds each operation's wall time and the file's, the thread's JS heap
 * (`resourceLimits`) and what an operation adds to the process's memory outside it (pdf-memory-watch.ts);
 * a thread past a bound is terminated, which also frees its typed arrays and native canvas memory. A thread whose file
 * ended well is kept for the next file (starting one and loading pdf.js takes seconds).
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { PageLayout } from '@docflow/contracts';
import { TimeoutError } from '@docflow/timing';
import { type PdfFile, PdfTooLargeError, PdfUnreadableError } from './pdf';
import { DEFAULT_PDF_MEMORY_MIB, watchMemory } from './pdf-memory-watch';
import { Slots } from './slots';
import { startWorkerModule } from './worker-module';

type PdfCall =
  | { op: 'open'; bytes: Uint8Array }
  | { op: 'layout'; pageIdx: number }
  | { op: 'render'; pageIdx: number; dpi?: number }
  | { op: 'close' };
/** Messages to the thread; a request's `id` comes back on its reply. */
export type PdfRequest = PdfCall & { id: number };
export type PdfReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; kind: 'unreadable' | 'too-large'; message: string };

export const DEFAULT_PDF_OP_TIMEOUT_MS = 30_000;
/** pdf.js keeps a PDF's objects on the JS heap: a page tree 400,000 levels deep takes about 540 MiB. */
export const DEFAULT_PDF_HEAP_MIB = 256;
/** Threads kept warm between files. */
const IDLE_THREADS = 1;
/**
 * PDFs read at once in one process; more wait (within their deadline). Each thread may take its heap
 * bound plus one rendered page (pdf.ts), so this bounds what PDFs take in all.
 */
const PDF_THREADS = availableParallelism();
const threadSlots = new Slots(PDF_THREADS);

export interface PdfThreadOptions {
  /** Bound on opening the file (thread start included) and on each page's text or rendering. Default 30 s. */
  opTimeoutMs?: number;
  /** `Date.now()` after which no operation of this file may run; default none. */
  deadline?: number;
  /** The thread's JS heap (old generation), MiB; past it the file is too large. Default 256. */
  heapMiB?: number;
  /** What one operation may add to the process's RSS, MiB; past it the file is too large. Default 1024. */
  memoryMiB?: number;
}

const WORKER_MODULE = new URL('./pdf-worker.ts', import.meta.url);
interface IdleThread {
  worker: Worker;
  heapMiB: number;
  /** Drops it from the idle list should it end while idle. */
  onExit: () => void;
}
const idle: IdleThread[] = [];

/**
 * Opens `bytes` in a worker thread. Rejects, and every page operation of the result rejects, with
 * PdfUnreadableError (pdf.js cannot read it), PdfTooLargeError (a page's declared size, or the heap the
 * file needs) or TimeoutError (the thread is terminated). `close()` gives the thread back.
 *
 * @example
 * const pdf = await openPdfInWorker(bytes, { deadline: Date.now() + 600_000 });
 * try { const png = await pdf.renderPage(0); } finally { await pdf.close(); }
 */
export async function openPdfInWorker(bytes: Uint8Array, options: PdfThreadOptions = {}): Promise<PdfFile> {
  const opTimeoutMs = options.opTimeoutMs ?? DEFAULT_PDF_OP_TIMEOUT_MS;
  const deadline = options.deadline ?? Number.POSITIVE_INFINITY;
  const heapMiB = options.heapMiB ?? DEFAULT_PDF_HEAP_MIB;
  const memoryMiB = options.memoryMiB ?? DEFAULT_PDF_MEMORY_MIB;
  const late = () => new TimeoutError('recognising the file took longer than its time limit');
  if (Date.now() >= deadline) throw late();
  await threadSlots.acquire(deadline, late);
  const thread = leaseThread(heapMiB);
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  let lastId = 0;
  // Once set, this file is done with the thread and every call rejects with it.
  let ended: Error | undefined;
  const end = (err: Error, keepThread = false) => {
    if (ended) return;
    ended = err;
    for (const call of pending.values()) call.reject(err);
    pending.clear();
    thread.off('message', onMessage).off('error', onError).off('exit', onExit);
    if (keepThread) returnThread(thread, heapMiB);
    else void thread.terminate();
    threadSlots.release();
  };
  const onMessage = (reply: PdfReply) => {
    const call = pending.get(reply.id);
    pending.delete(reply.id);
    if (!call) return;
    if (reply.ok) call.resolve(reply.value);
    else
      call.reject(
        reply.kind === 'too-large'
          ? new PdfTooLargeError(reply.message)
          : new PdfUnreadableError(reply.message),
      );
  };
  const onError = (err: Error & { code?: string }) =>
    end(
      err.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new PdfTooLargeError(`reading the PDF needs more than ${heapMiB} MiB of memory`)
        : new Error(`the PDF thread failed: ${err.message}`, { cause: err }),
    );
  const onExit = (code: number) => end(new Error(`the PDF thread exited with code ${code}`));
  thread.on('message', onMessage).on('error', onError).on('exit', onExit);

  const call = <T>(request: PdfCall, what: string, transfer: ArrayBuffer[] = []) => {
    if (ended) return Promise.reject(ended);
    const fileLeft = deadline - Date.now();
    const id = ++lastId;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          end(
            new TimeoutError(
              fileLeft < opTimeoutMs
                ? `recognising the file took longer than its time limit (${what})`
                : `${what} took longer than ${opTimeoutMs} ms`,
            ),
          ),
        Math.max(0, Math.min(opTimeoutMs, fileLeft)),
      );
      const unwatch = watchMemory(memoryMiB, () =>
        end(new PdfTooLargeError(`${what} needs more than ${memoryMiB} MiB of memory outside the JS heap`)),
      );
      const settled =
        <A>(then: (arg: A) => void) =>
        (arg: A) => {
          clearTimeout(timer);
          unwatch();
          then(arg);
        };
      pending.set(id, { resolve: settled(resolve as (value: unknown) => void), reject: settled(reject) });
      thread.postMessage({ ...request, id }, transfer);
    });
  };

  const close = async () => {
    if (ended) return;
    try {
      await call({ op: 'close' }, 'closing the PDF');
      end(new Error('the PDF was closed'), true);
    } catch {
      // The thread was terminated meanwhile: nothing is left to give back.
    }
  };
  // A copy of its own for the thread, moved there rather than copied again.
  const copy = new Uint8Array(bytes);
  try {
    const pageCount = await call<number>({ op: 'open', bytes: copy }, 'opening the PDF', [copy.buffer]);
    return {
      pageCount,
      pageLayout: (pageIdx) =>
        call<PageLayout>({ op: 'layout', pageIdx }, `reading the text of page ${pageIdx + 1}`),
      renderPage: async (pageIdx, dpi) => {
        const png = await call<Uint8Array>({ op: 'render', pageIdx, dpi }, `rendering page ${pageIdx + 1}`);
        return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

function leaseThread(heapMiB: number): Worker {
  const at = idle.findIndex((t) => t.heapMiB === heapMiB);
  if (at < 0)
    return startWorkerModule(WORKER_MODULE, { resourceLimits: { maxOldGenerationSizeMb: heapMiB } });
  const [kept] = idle.splice(at, 1);
  kept!.worker.off('exit', kept!.onExit).ref();
  return kept!.worker;
}

function returnThread(worker: Worker, heapMiB: number): void {
  if (idle.length >= IDLE_THREADS) {
    void worker.terminate();
    return;
  }
  // An idle thread does not keep the process alive.
  const entry: IdleThread = {
    worker,
    heapMiB,
    onExit: () => {
      const at = idle.indexOf(entry);
      if (at >= 0) idle.splice(at, 1);
    },
  };
  worker.unref();
  worker.once('exit', entry.onExit);
  idle.push(entry);
}
