/**
 * Every file the service stored, as a small table in its local.db: the blob it holds, when its upload
 * ended, and how far it is on its way. It is the orphan sweeper's work list and the count of files
 * holding each blob. The stored-files projection keeps it from the service's own `file-` events; the
 * sweeper and the blob release note what they settled.
 *
 * A file's state only moves forward, so an event applied again changes nothing:
 * - `stored`: no document is known to hold it yet (an orphan once its grace period is over);
 * - `attached`: the sweeper found a document holding it (final: attached files are never discarded);
 * - `discarded`: FileDiscarded is recorded, its blob not yet released;
 * - `released`: its blob was deleted, or left to the other files that hold it.
 */
import { upcast } from '@docflow/contracts';
import type { RecordedEvent } from '@docflow/eventstore';
import type { LocalDb } from '@docflow/kit/eventsourcing';
import { fileAggregate } from './file';

export interface StoredFileRow {
  id: string;
  blobKey: string;
  /** When the store recorded FileStored, in ms since the epoch: the end of the upload. */
  storedAt: number;
}

/** Where a listing goes on: after this row in (storedAt, id) order. */
export type After = Pick<StoredFileRow, 'storedAt' | 'id'>;

export interface StoredFilesTable {
  /** Applies one `file-` event; applying it again changes nothing. */
  apply(event: RecordedEvent): void;
  /** True when a file that is not discarded holds the blob. */
  hasLiveFile(blobKey: string): boolean;
  /**
   * Files in `stored` whose upload ended at or before `endedBy`, oldest first, at most `limit`, and
   * only those stored after the sweep horizon: the sweeper's candidates.
   */
  unattached(endedBy: number, limit: number, after?: After): StoredFileRow[];
  /** Files in `discarded`, oldest first: their blobs are still to be released. */
  awaitingRelease(limit: number, after?: After): StoredFileRow[];
  markAttached(id: string): void;
  markReleased(id: string): void;
  /** The sweep horizon, once set: files at or before this store position are never swept. */
  horizon(): string | undefined;
  /** Sets the sweep horizon unless it is set already. */
  setHorizonOnce(position: string): void;
}

const START: After = { storedAt: -1, id: '' };

export function createStoredFilesTable(db: LocalDb): StoredFilesTable {
  db.exec(`
    CREATE TABLE IF NOT EXISTS stored_files (
      file_id TEXT PRIMARY KEY,
      blob_key TEXT NOT NULL,
      position TEXT NOT NULL,
      stored_at INTEGER NOT NULL,
      state TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS stored_files_by_state ON stored_files (state, stored_at, file_id);
    CREATE INDEX IF NOT EXISTS stored_files_by_blob ON stored_files (blob_key, state);
    CREATE TABLE IF NOT EXISTS stored_files_horizon (
      only INTEGER PRIMARY KEY CHECK (only = 1), position TEXT NOT NULL
    );
  `);
  const insertStored = db.prepare(
    `INSERT OR IGNORE INTO stored_files (file_id, blob_key, position, stored_at, state)
     VALUES (?, ?, ?, ?, 'stored')`,
  );
  const moveTo = (to: string, from: string[]) =>
    db.prepare(
      `UPDATE stored_files SET state = '${to}'
       WHERE file_id = ? AND state IN (${from.map((s) => `'${s}'`).join(', ')})`,
    );
  const discard = moveTo('discarded', ['stored', 'attached']);
  const attach = moveTo('attached', ['stored']);
  const release = moveTo('released', ['discarded']);
  const live = db.prepare<[string], { found: number }>(
    `SELECT 1 AS found FROM stored_files WHERE blob_key = ? AND state IN ('stored', 'attached') LIMIT 1`,
  );
  const columns = 'file_id AS id, blob_key AS blobKey, stored_at AS storedAt';
  const listUnattached = db.prepare<[number, string, number, string, number], StoredFileRow>(
    `SELECT ${columns} FROM stored_files
     WHERE state = 'stored' AND stored_at <= ? AND position > ? AND (stored_at, file_id) > (?, ?)
     ORDER BY stored_at, file_id LIMIT ?`,
  );
  const listDiscarded = db.prepare<[number, string, number], StoredFileRow>(
    `SELECT ${columns} FROM stored_files
     WHERE state = 'discarded' AND (stored_at, file_id) > (?, ?)
     ORDER BY stored_at, file_id LIMIT ?`,
  );
  const selectHorizon = db.prepare<[], { position: string }>(
    'SELECT position FROM stored_files_horizon WHERE only = 1',
  );
  const insertHorizon = db.prepare(
    'INSERT OR IGNORE INTO stored_files_horizon (only, position) VALUES (1, ?)',
  );
  const horizon = () => selectHorizon.get()?.position;

  return {
    apply(recorded) {
      const event = fileAggregate.parse(recorded.type, upcast(recorded).data);
      if (event.type === 'FileStored')
        insertStored.run(
          event.data.id,
          event.data.blobKey,
          recorded.position,
          Date.parse(recorded.recordedAt),
        );
      else discard.run(event.data.id);
    },
    hasLiveFile: (blobKey) => live.get(blobKey) !== undefined,
    unattached(endedBy, limit, after = START) {
      const from = horizon();
      if (from === undefined) return [];
      return listUnattached.all(endedBy, from, after.storedAt, after.id, limit);
    },
    awaitingRelease: (limit, after = START) => listDiscarded.all(after.storedAt, after.id, limit),
    markAttached: (id) => {
      attach.run(id);
    },
    markReleased: (id) => {
      release.run(id);
    },
    horizon,
    setHorizonOnce: (position) => {
      insertHorizon.run(position);
    },
  };
}
