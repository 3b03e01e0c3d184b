/**
 * A bound on what a PDF operation takes outside its thread's JS heap (issue 29): pdf.js decodes images
 * and their soft masks into typed arrays and @napi-rs/canvas holds its pixels natively, and neither
 * counts towards `resourceLimits`. Declared sizes are checked first (pdf.js's `maxImageSize`, and
 * pdf-mask-size.ts for masks), but only pdf.js knows every size it resolves (an indirect `/Width`, a
 * JPEG's own dimensions), and Node 20 gives no per-thread memory figure (`worker.getHeapStatistics` is
 * Node 22). The main thread, whose event loop the PDF threads leave free, therefore samples the
 * process's RSS while an operation runs and reports an operation under which it grew past the bound,
 * to be terminated with its thread.
 */

/** What one PDF operation may add to the process's RSS; a 35 MP page's render takes ≈ 250 MB. */
export const DEFAULT_PDF_MEMORY_MIB = 1024;
/** Sampling costs a system call; at this rate a decoding thread overshoots by some 100 MB at most. */
const SAMPLE_EVERY_MS = 25;
const MIB = 1024 * 1024;

interface Watched {
  ceiling: number;
  onPast: () => void;
}
const watched = new Set<Watched>();
let sampler: NodeJS.Timeout | undefined;

/**
 * Calls `onPast` once if the process's RSS grows more than `limitMiB` above what it is now, until the
 * returned function is called.
 *
 * @example
 * const stop = watchMemory(1024, () => thread.terminate());
 * try { await render(); } finally { stop(); }
 */
export function watchMemory(limitMiB: number, onPast: () => void): () => void {
  const entry: Watched = { ceiling: process.memoryUsage.rss() + limitMiB * MIB, onPast };
  watched.add(entry);
  sampler ??= setInterval(sample, SAMPLE_EVERY_MS).unref();
  return () => unwatch(entry);
}

function unwatch(entry: Watched): void {
  watched.delete(entry);
  if (watched.size === 0 && sampler) {
    clearInterval(sampler);
    sampler = undefined;
  }
}

function sample(): void {
  const rss = process.memoryUsage.rss();
  for (const entry of [...watched])
    if (rss > entry.ceiling) {
      unwatch(entry);
      entry.onPast();
    }
}
