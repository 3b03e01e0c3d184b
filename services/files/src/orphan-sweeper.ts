/**
 * The orphan sweeper: what the document service's own discard of a rejected create misses (it
 * crashed, the call was lost). Every `intervalMs` it discards the files whose upload ended more than
 * `graceMs` ago and that no document holds, and releases the blobs of discarded files whose release
 * was cut short. Why the grace period is safe: docs/decisions.md.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '@docflow/kit';
import type { AttachmentIndex } from './attachment-index';
import type { BlobHolders } from './blob-holders';
import type { DiscardFile } from './discard';
import type { After, StoredFileRow, StoredFilesTable } from './stored-files';

/** Rows read from the table at a time. */
const PAGE = 500;

export interface SweepReport {
  /** Orphans discarded by this pass. */
  discarded: number;
  /** Files found attached (never looked at again). */
  attached: number;
  /** Files discarded earlier whose blob release this pass finished. */
  released: number;
  /** Files this pass could not settle (logged; the next pass tries again). */
  failed: number;
}

export interface OrphanSweeper {
  /** One pass; `now` (ms) is what the grace period counts back from. Passes never overlap. */
  run(now?: number): Promise<SweepReport>;
  /** Runs a pass every interval, the first one interval after the start. */
  start(): void;
  /** Stops the timer and waits for a pass under way, which stops at the next file. */
  stop(): Promise<void>;
}

export interface OrphanSweeperDeps {
  table: StoredFilesTable;
  index: AttachmentIndex;
  discard: DiscardFile;
  holders: BlobHolders;
  graceMs: number;
  intervalMs: number;
  log: Logger;
}

/** Every row a listing gives, page by page, each page read when the one before is done. */
function* pages(list: (after?: After) => StoredFileRow[]): Generator<StoredFileRow> {
  let after: After | undefined;
  for (;;) {
    const page = list(after);
    yield* page;
    if (page.length < PAGE) return;
    after = page[page.length - 1];
  }
}

export function createOrphanSweeper(deps: OrphanSweeperDeps): OrphanSweeper {
  const { table, index, discard, holders, graceMs, intervalMs, log } = deps;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let last: Promise<unknown> = Promise.resolve();

  async function sweep(now: number): Promise<SweepReport> {
    const report: SweepReport = { discarded: 0, attached: 0, released: 0, failed: 0 };
    const failed = (err: unknown, file: StoredFileRow, what: string) => {
      report.failed++;
      log.warn({ err, fileId: file.id }, `orphan sweep: ${what} failed; the next pass tries again`);
    };
    for (const file of pages((after) => table.unattached(now - graceMs, PAGE, after))) {
      if (stopping) return report;
      if (index.isFileAttached(file.id)) {
        table.markAttached(file.id);
        report.attached++;
        continue;
      }
      const metadata = { correlationId: randomUUID(), timestamp: new Date().toISOString() };
      try {
        await discard(file.id, 'unattached', metadata);
        report.discarded++;
      } catch (err) {
        failed(err, file, 'discarding it');
      }
    }
    for (const file of pages((after) => table.awaitingRelease(PAGE, after))) {
      if (stopping) return report;
      try {
        if (await holders.release(file)) report.released++;
      } catch (err) {
        failed(err, file, 'releasing its blob');
      }
    }
    return report;
  }

  function run(now = Date.now()): Promise<SweepReport> {
    const pass = last.then(() => sweep(now));
    last = pass.catch(() => {});
    return pass;
  }

  function schedule() {
    timer = setTimeout(() => {
      run()
        .then(
          (report) => {
            if (report.discarded || report.released || report.failed) log.info(report, 'orphan sweep');
          },
          (err) => log.error({ err }, 'orphan sweep failed'),
        )
        .finally(() => {
          if (!stopping) schedule();
        });
    }, intervalMs);
    // The service's server keeps the process alive; a pending sweep alone must not.
    timer.unref();
  }

  return {
    run,
    start() {
      stopping = false;
      schedule();
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await last;
    },
  };
}
