/**
 * The floor of a views rebuild (issue 14): SQLite alone writing the rows a rebuild ends with, into a
 * fresh local.db with the views' schema and the offline rebuild's settings, and none of the rebuild's
 * JavaScript: no event read or parsed, no fold, no JSON written, nothing looked up. The rows are read
 * from a rebuilt local.db a batch at a time, outside the timed part. Timed, as `views:rebuild` reports
 * its phases: the rows (each document's `view_docs` row with its JSON as stored, its search row, its
 * tag, open-task and reader rows; one transaction per OFFLINE_BATCH_SIZE documents), the final counts,
 * the secondary indexes and the search index's merge, the WAL copied into the file.
 *
 * A lower bound for any rebuild writing these rows into one SQLite file: a rebuild writes a document
 * again when its events span two batches, updates the counts per batch, and commits every
 * OFFLINE_BATCH_SIZE events rather than documents.
 */
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { openLocalDb } from '../packages/kit/src/local-db';
import { OFFLINE_BATCH_SIZE } from '../services/document/src/views/projection';
import {
  createSecondaryIndexes,
  dropSecondaryIndexes,
  FILTER_COLUMNS,
  MEMBERSHIPS,
  migrateViewsSchema,
  optimizeSearchIndex,
  SEARCH_TABLE,
  tuneForOfflineRebuild,
} from '../services/document/src/views/schema';
import { searchTextOf } from '../services/document/src/views/search';

export interface RebuildFloor {
  documents: number;
  rowsS: number;
  indexesS: number;
  walS: number;
  totalS: number;
  /** This process's CPU time over the timed part (user and system). */
  cpuS: number;
}

const seconds = (fromMs: number) => (performance.now() - fromMs) / 1000;
const DOC_COLUMNS = `id, ${FILTER_COLUMNS}, created, doc`;

/** Writes the rows of `rebuiltLocalDb` (read-only) into a new `scratchFile`, removed afterwards. */
export function measureRebuildFloor(rebuiltLocalDb: string, scratchFile: string): RebuildFloor {
  const source = new Database(rebuiltLocalDb, { readonly: true });
  const target = openLocalDb(scratchFile);
  try {
    tuneForOfflineRebuild(target);
    migrateViewsSchema(target);
    dropSecondaryIndexes(target);
    const docs = source
      .prepare<[number, number], unknown[]>(
        `SELECT rowid, ${DOC_COLUMNS} FROM view_docs WHERE rowid > ? ORDER BY rowid LIMIT ?`,
      )
      .raw();
    const insertDoc = target.prepare(
      `INSERT INTO view_docs (${DOC_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertSearch = target.prepare(`INSERT INTO ${SEARCH_TABLE} (rowid, fields, text) VALUES (?, ?, ?)`);
    const memberships = Object.values(MEMBERSHIPS).map(({ table, column }) => ({
      // By the `_doc` index of the rebuilt file: the rows of one batch's documents.
      read: source
        .prepare<[number, number], unknown[]>(
          `SELECT ${column}, created, id, ${FILTER_COLUMNS} FROM ${table}
           WHERE id IN (SELECT id FROM view_docs WHERE rowid > ? AND rowid <= ?)`,
        )
        .raw(),
      insert: target.prepare(
        `INSERT INTO ${table} (${column}, created, id, ${FILTER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
    }));
    const insertCount = target.prepare('INSERT INTO view_counts (key, n) VALUES (?, ?)');
    const writeBatch = target.transaction(
      (rows: unknown[][], search: { fields: string; text: string }[], members: unknown[][][]) => {
        for (let i = 0; i < rows.length; i++) {
          const rowid = Number(insertDoc.run(...rows[i]!).lastInsertRowid);
          insertSearch.run(rowid, search[i]!.fields, search[i]!.text);
        }
        members.forEach((memberRows, m) => {
          for (const row of memberRows) memberships[m]!.insert.run(...row);
        });
      },
    );

    const counts = source.prepare('SELECT key, n FROM view_counts').raw().all() as unknown[][];
    let timedMs = 0;
    let documents = 0;
    const cpuAtStart = process.cpuUsage();
    let cpuUntimed = 0;
    for (let after = 0; ; ) {
      const untimed = process.cpuUsage();
      const read = docs.all(after, OFFLINE_BATCH_SIZE);
      if (read.length === 0) break;
      const last = read[read.length - 1]![0] as number;
      const rows = read.map((r) => r.slice(1));
      const search = rows.map((r) => searchTextOf(JSON.parse(r[8] as string)));
      const members = memberships.map((m) => m.read.all(after, last));
      const reading = process.cpuUsage(untimed);
      cpuUntimed += reading.user + reading.system;
      const started = performance.now();
      writeBatch(rows, search, members);
      timedMs += performance.now() - started;
      documents += read.length;
      after = last;
    }
    let started = performance.now();
    target.transaction(() => {
      for (const row of counts) insertCount.run(...row);
    })();
    const rowsS = timedMs / 1000 + seconds(started);
    started = performance.now();
    createSecondaryIndexes(target);
    optimizeSearchIndex(target);
    const indexesS = seconds(started);
    started = performance.now();
    target.pragma('wal_checkpoint(TRUNCATE)');
    const walS = seconds(started);
    const cpu = process.cpuUsage(cpuAtStart);
    const cpuS = (cpu.user + cpu.system - cpuUntimed) / 1e6;
    return { documents, rowsS, indexesS, walS, totalS: rowsS + indexesS + walS, cpuS };
  } finally {
    source.close();
    target.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${scratchFile}${suffix}`, { force: true });
  }
}
