/**
 * Durability of SQLite commits made with `synchronous=NORMAL` (no fsync in the commit), off the event
 * loop: `sync()` fdatasyncs the database's WAL file on the thread pool and resolves once every commit
 * made before the call is on disk. Calls that arrive while an fsync runs share the next one.
 * (NORMAL still fsyncs around checkpoints, so the WAL is never reused before the database has it.)
 */
import { closeSync, fdatasync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export interface WalSync {
  /** Resolves once every commit made before the call is on disk. */
  sync(): Promise<void>;
  /** One fsync, started now (for a caller that tracks what each fsync covers itself). */
  fsync(): Promise<void>;
  close(): Promise<void>;
}

export function sqliteWalSync(databaseFile: string): WalSync {
  const walFile = `${databaseFile}-wal`;
  let fd: number | undefined;
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;

  // The callback API on a plain descriptor: FileHandle's promise methods cost a lone append about
  // twice the JavaScript around the same fdatasync on the thread pool.
  function fsyncOnce(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (fd === undefined) {
        try {
          // Kept open (SQLite does not delete the WAL while this connection is open); the directory
          // entry of a WAL created since the last fsync of the directory is made durable once.
          fd = openSync(walFile, 'r');
          syncPath(dirname(walFile));
        } catch (error) {
          reject(error);
          return;
        }
      }
      fdatasync(fd, (error) => (error ? reject(error) : resolve()));
    });
  }

  function start(): Promise<void> {
    running = fsyncOnce().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    fsync: fsyncOnce,
    sync() {
      if (!running) return start();
      // The fsync under way may have started before this caller's commit: wait for the next one.
      next ??= running
        .catch(() => {})
        .then(() => {
          next = undefined;
          return start();
        });
      return next;
    },
    async close() {
      await running?.catch(() => {});
      await next?.catch(() => {});
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/** fsync of a file or directory, synchronous (start-up only); a missing one is nothing to sync. */
export function syncPath(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
