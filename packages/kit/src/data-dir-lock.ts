/**
 * One process per service data directory: its embedded stores (SQLite event store, local database)
 * take one writer, and a second process on them would fork the relay checkpoint and the read models.
 *
 * The lock is the write lock of a small SQLite file, `<dir>/.lock`, held by an open transaction for
 * the life of the process. SQLite takes it as a POSIX record lock, which the kernel drops however the
 * process ends (SIGKILL included): a dead holder never blocks a restart, and no stale file is guessed
 * at by pid or age. The holder's pid, host and start time are committed in the file before the lock is
 * held, and stay readable to a refused process (SQLite lets readers in beside a reserved write lock).
 * Like SQLite itself, it needs a file system with working POSIX locks (not every network share).
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createPrivateFile } from '@docflow/eventstore';
import Database from 'better-sqlite3';

export const LOCK_FILE = '.lock';
/** A refused process waits this long to read the holder (busy only while the holder commits it). */
const READ_HOLDER_TIMEOUT_MS = 1000;

export interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

/** Another live process holds the data directory: start-up stops (exit 2, like a configuration error). */
export class DataDirInUse extends Error {
  override readonly name = 'DataDirInUse';
  constructor(
    readonly dir: string,
    readonly holder: LockHolder | undefined,
  ) {
    const who = holder
      ? `process ${holder.pid} on ${holder.host} (running since ${holder.since})`
      : 'another process';
    super(
      `the data directory ${dir} is in use by ${who}; one process per data directory: ` +
        'stop that process, or give this one its own DOCFLOW_DATA_DIR (README, Scaling)',
    );
  }
}

export interface DataDirLock {
  /** Lets the next process in; also happens by itself when this process ends. */
  release(): void;
}

const isBusy = (err: unknown) =>
  err instanceof Database.SqliteError && (err.code === 'SQLITE_BUSY' || err.code === 'SQLITE_LOCKED');

function readHolder(db: Database.Database): LockHolder | undefined {
  try {
    db.pragma(`busy_timeout = ${READ_HOLDER_TIMEOUT_MS}`);
    return db.prepare<[], LockHolder>('SELECT pid, host, since FROM holder').get();
  } catch {
    // The holder has not committed its row yet: it is still "another process".
    return undefined;
  }
}

/** Takes the write lock now or throws DataDirInUse naming the holder (never waits for it). */
function begin(db: Database.Database, dir: string): void {
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (err) {
    if (!isBusy(err)) throw err;
    const holder = readHolder(db);
    db.close();
    throw new DataDirInUse(dir, holder);
  }
}

/**
 * Locks `dir` for this process until `release()` or exit; throws DataDirInUse when a live process
 * holds it. Take it before opening any store in `dir`.
 *
 * @example const lock = lockDataDir(join(dataDir, 'document')); … lock.release();
 */
export function lockDataDir(dir: string): DataDirLock {
  const file = join(dir, LOCK_FILE);
  createPrivateFile(file);
  const db = new Database(file, { timeout: 0 });
  begin(db, dir);
  try {
    db.exec(
      'CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, host TEXT NOT NULL, since TEXT NOT NULL)',
    );
    db.exec('DELETE FROM holder');
    db.prepare('INSERT INTO holder (pid, host, since) VALUES (?, ?, ?)').run(
      process.pid,
      hostname(),
      new Date().toISOString(),
    );
    db.exec('COMMIT');
  } catch (err) {
    db.close();
    throw err;
  }
  // Held from here on: the committed row is what a refused process reads. Whoever took the lock in
  // the instant between the commit and this begin holds the directory, and this process is refused.
  begin(db, dir);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      db.exec('ROLLBACK');
      db.close();
    },
  };
}

/** Locks every directory of `dirs` or none: on a refusal the ones already taken are let go. */
export function lockDataDirs(dirs: readonly string[]): DataDirLock {
  const locks: DataDirLock[] = [];
  try {
    for (const dir of dirs) locks.push(lockDataDir(dir));
  } catch (err) {
    for (const lock of locks) lock.release();
    throw err;
  }
  return {
    release() {
      for (const lock of locks) lock.release();
    },
  };
}
