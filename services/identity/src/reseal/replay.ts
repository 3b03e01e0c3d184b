/**
 * Identity's event store replayed into a new one: every event in position order with its id, stream,
 * revision, position, metadata and time of recording kept, and its data re-sealed when it carries
 * personal fields in clear. The rows are written as they were rather than appended through the
 * store's port, which would number and date them anew: the positions are what the relay's and the
 * account list's checkpoints (identity's local.db) count, and the ids what every consumer dedupes by,
 * so the new directory goes on where the old one stood. The source is opened read-only.
 * The checkpoint is the new store itself: each batch commits its rows in one transaction, and a rerun
 * goes on after the highest position it holds.
 */
import { createPrivateFile, SQLITE_EVENTS_SCHEMA } from '@docflow/eventstore';
import Database from 'better-sqlite3';
import type { KeyStore } from '../key-store';
import { resealedData } from './reseal-event';

const BATCH = 500;
const BUSY_TIMEOUT_MS = 5_000;
const COLUMNS = 'position, stream_id, revision, id, type, version, data, metadata, recorded_at';

interface Row {
  position: number;
  stream_id: string;
  revision: number;
  id: string;
  type: string;
  version: number;
  data: string;
  metadata: string;
  recorded_at: string;
}

export interface ReplayOptions {
  /** The old `identity/events.db`. */
  from: string;
  /** The new one (made when missing; a rerun goes on in it). */
  to: string;
  /** The new directory's key store: keys are made in it for accounts that had none. */
  keys: KeyStore;
  /** Replay at most this many events in this run (a bounded run; the next one goes on). */
  limit?: number;
  onProgress(done: number, total: number): void;
}

export interface ReplaySummary {
  /** Events in the old store. */
  total: number;
  /** Events the new store held when this run began (an earlier run's). */
  resumedWith: number;
  /** Events copied by this run, and how many of them were re-sealed. */
  replayed: number;
  resealed: number;
  /** Every event of the old store is in the new one. */
  complete: boolean;
}

/** A new store that is not a replay of this old one. */
export class NotThisReplay extends Error {}

export async function replayIdentityEvents(options: ReplayOptions): Promise<ReplaySummary> {
  const source = new Database(options.from, { readonly: true, fileMustExist: true });
  createPrivateFile(options.to);
  const target = new Database(options.to, { timeout: BUSY_TIMEOUT_MS });
  try {
    target.pragma('journal_mode = WAL');
    target.pragma('synchronous = FULL');
    target.exec(SQLITE_EVENTS_SCHEMA);
    const count = (db: Database.Database) =>
      db.prepare<[], number>('SELECT count(*) FROM events').pluck().get()!;
    const [total, resumedWith] = [count(source), count(target)];
    const after = continuesAfter(source, target);
    const next = source.prepare<[number, number], Row>(
      `SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`,
    );
    const insert = target.prepare(
      `INSERT INTO events (${COLUMNS}) VALUES
       (@position, @stream_id, @revision, @id, @type, @version, @data, @metadata, @recorded_at)`,
    );
    let [position, replayed, resealed] = [after, 0, 0];
    // Sealed first (the key store answers asynchronously), then written in one transaction.
    const resealBatch = (rows: Row[]) =>
      Promise.all(
        rows.map(async (row) => {
          const data = await resealedData(options.keys, row.stream_id, row.type, JSON.parse(row.data));
          if (data !== undefined) resealed++;
          return data === undefined ? row : { ...row, data: JSON.stringify(data) };
        }),
      );
    const copyBatch = target.transaction((rows: Row[]) => {
      for (const row of rows) insert.run(row);
    });
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    options.onProgress(resumedWith, total);
    while (replayed < limit) {
      const rows = next.all(position, Math.min(BATCH, limit - replayed));
      if (rows.length === 0) break;
      copyBatch(await resealBatch(rows));
      position = rows.at(-1)!.position;
      replayed += rows.length;
      options.onProgress(resumedWith + replayed, total);
    }
    return { total, resumedWith, replayed, resealed, complete: count(target) === total };
  } finally {
    target.close();
    source.close();
  }
}

/** The position the new store ends at, once it is known to be a replay of the old one (0: empty). */
function continuesAfter(source: Database.Database, target: Database.Database): number {
  const last = target
    .prepare<[], { position: number; id: string }>(
      'SELECT position, id FROM events ORDER BY position DESC LIMIT 1',
    )
    .get();
  if (!last) return 0;
  const same = source
    .prepare<[number], string>('SELECT id FROM events WHERE position = ?')
    .pluck()
    .get(last.position);
  if (same !== last.id)
    throw new NotThisReplay(
      `the new directory's identity events end with ${last.id} at position ${last.position}, ` +
        'which the old directory does not hold there: it was made from another data directory',
    );
  return last.position;
}
