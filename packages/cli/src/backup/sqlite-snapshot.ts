/**
 * Consistent copies of SQLite stores that a running service keeps writing. Each store is opened on a
 * connection of its own (read-only: no lock of the service's is taken, and nothing is written to its
 * directory), and a read transaction is begun on it: in WAL mode that pins the store as it is at that
 * instant while the service goes on writing. SQLite's online backup API then copies the pinned
 * snapshot page by page; since the source connection keeps its read transaction, the copy is never
 * restarted by the writer's commits, however long it takes.
 */
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { DIR_MODE, FILE_MODE } from './files';
import type { Progress } from './progress';

/** A writer's commit holds the store for a moment: wait for it rather than fail. */
const BUSY_TIMEOUT_MS = 5_000;
/** Pages per backup step (16 MiB at SQLite's default 4 KiB page): one step between progress updates. */
const PAGES_PER_STEP = 4096;

export interface Snapshot {
  /** The store's file. */
  file: string;
  /** Copies the snapshot to `to` (appears whole, synced by SQLite, or not at all), then lets it go. */
  copyTo(to: string, progress: Progress, label: string): Promise<void>;
  /** Ends the read transaction and closes the connection (idempotent). */
  release(): void;
}

/**
 * Pins every store of `files`, in that order, synchronously: no other work of this process runs in
 * between, so the snapshots are of (almost) one instant. All or none: a store that cannot be opened
 * lets the others go and throws.
 */
export function pinSnapshots(files: readonly string[]): Snapshot[] {
  const snapshots: Snapshot[] = [];
  try {
    for (const file of files) snapshots.push(pin(file));
  } catch (error) {
    for (const snapshot of snapshots) snapshot.release();
    throw error;
  }
  return snapshots;
}

function pin(file: string): Snapshot {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  let pages: number;
  try {
    db.exec('BEGIN');
    // The read transaction (and its snapshot) starts with the first read.
    pages = db.pragma('page_count', { simple: true }) as number;
  } catch (error) {
    db.close();
    throw error;
  }
  let pinned = true;
  const release = () => {
    if (!pinned) return;
    pinned = false;
    db.exec('COMMIT');
    db.close();
  };
  return {
    file,
    release,
    async copyTo(to, progress, label) {
      const part = `${to}.part`;
      await mkdir(dirname(to), { recursive: true, mode: DIR_MODE });
      await rm(part, { force: true });
      // Made private before SQLite writes a byte of it: a copy of the key store is as secret as it.
      await (await open(part, 'wx', FILE_MODE)).close();
      progress.start(label, pages, 'pages');
      try {
        await db.backup(part, {
          progress: ({ totalPages, remainingPages }) => {
            progress.update(totalPages - remainingPages);
            return PAGES_PER_STEP;
          },
        });
        progress.update(pages);
        await rename(part, to);
      } catch (error) {
        await rm(part, { force: true });
        throw error;
      } finally {
        progress.stop();
        release();
      }
    },
  };
}
