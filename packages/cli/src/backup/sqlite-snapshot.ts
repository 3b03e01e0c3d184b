/**
 * Consistent copies of SQLite stores that a running service keeps writing. Each store is opened on a
 * connection of its own (read-only: no lock of the service's is taken and no store is written; beside
 * a stopped store SQLite makes its empty WAL and WAL-index files), and a read transaction is begun on it: in WAL mode that pins the store as it is at that
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

export interface Pinned {
  snapshots: Snapshot[];
  /** From the first snapshot to the last (ms): how far apart in time the stores of the copy are. */
  windowMs: number;
}

/**
 * Pins every store of `files`, in that order. Every connection is opened first; then the snapshots
 * are taken one after the other synchronously, so they lie within a fraction of a millisecond of
 * each other. All or none: a store that cannot be opened or read lets the others go and throws.
 */
export function pinSnapshots(files: readonly string[]): Pinned {
  const dbs: Database.Database[] = [];
  try {
    for (const file of files) {
      const db = new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
      dbs.push(db);
      // A first read maps the WAL index and loads the schema, so the pinning reads below are quick.
      db.pragma('page_count');
    }
    const started = performance.now();
    // The read transaction (and its snapshot) starts with the first read.
    const pages = dbs.map((db) => {
      db.exec('BEGIN');
      return db.pragma('page_count', { simple: true }) as number;
    });
    const windowMs = Math.round((performance.now() - started) * 1000) / 1000;
    return { snapshots: dbs.map((db, i) => snapshotOf(db, files[i]!, pages[i]!)), windowMs };
  } catch (error) {
    for (const db of dbs) db.close();
    throw error;
  }
}

function snapshotOf(db: Database.Database, file: string, pages: number): Snapshot {
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
