/**
 * Writes documents' rows into the view tables as the projection folds their events (the projection
 * calls it once per batch, with each document the batch changed, inside the batch's transaction): its
 * `view_docs` row, its tag, open-task and reader rows, its search row, and the row counts of every
 * key they lie under (summed over the batch, one update per key).
 */
import { STATE_CODES, STATUS_CODES } from '@docflow/contracts';
import { validationAssignees } from '@docflow/document-model';
import type { LocalDb } from '@docflow/kit/eventsourcing';
import { inboxAssignees, isDeleted } from '@docflow/workflow-model';
import { participantsOf } from '../documents/access';
import type { DocState } from '../documents/docForm';
import {
  ALL_COUNT_KEY,
  type Facet,
  FILTER_COLUMNS,
  facetKey,
  INDEXED_COLUMNS,
  MEMBERSHIPS,
  type Membership,
  SEARCH_TABLE,
  VIEW_TABLES,
} from './schema';
import { searchTextOf } from './search';
import type { TotalCache } from './total-cache';

export interface ViewsWriter {
  /** Replaces the document's rows (a deleted document's are removed: it leaves every view). */
  put(doc: DocState): void;
  /**
   * `put` of each document (each once), the counts updated once per key. `stored` holds what the
   * views stored of each document before (as `get` answers it: undefined when none), so that its
   * rows need not be read again; a document it lacks is looked up.
   */
  putAll(docs: Iterable<DocState>, stored?: ReadonlyMap<string, DocState | undefined>): void;
  /** Drops every row (the projection then replays the events). */
  clear(): void;
}

/**
 * A document's columns as each of its rows repeats them (`view_docs` and, after their key, the
 * memberships), in the order of the columns.
 */
type KeyColumns = [
  id: string,
  form: string,
  author: string,
  state: number,
  step: number,
  iteration: number,
  status: number,
  created: string,
];
/** A `view_docs` row: its columns, then the document as JSON. */
type DocRow = [...KeyColumns, doc: string];

/** The key columns of a document's rows. */
interface DocKeys extends Facet {
  author: string;
}

/** Every `view_counts` key the document counts under, beside its open tasks and readers. */
function countKeysOf(doc: DocKeys, tagged: Iterable<string>): string[] {
  const keys = [
    ALL_COUNT_KEY,
    INDEXED_COLUMNS.author(doc.author),
    INDEXED_COLUMNS.form(doc.form),
    INDEXED_COLUMNS.state(doc.state),
    facetKey(doc),
  ];
  for (const tag of tagged) keys.push(MEMBERSHIPS.tags.countKey(tag));
  return keys;
}

/** Adds `n` to the change of the count under `key`. */
function count(delta: Map<string, number>, key: string, n: number): void {
  delta.set(key, (delta.get(key) ?? 0) + n);
}

/** A document's rows as the views store them: its filter columns and the keys of its memberships. */
function rowsOf(doc: DocState) {
  return {
    row: {
      id: doc.id,
      form: doc.form,
      author: doc.author,
      state: STATE_CODES[doc.phase],
      step: doc.step,
      iteration: doc.iteration,
      status: STATUS_CODES[doc.status],
      created: doc.created,
    },
    tagged: new Set(doc.tags),
    // The inbox holds the open workflow tasks and the open validation tasks of recognised parts.
    assignees: new Set([...inboxAssignees(doc.workflow), ...validationAssignees(doc)]),
    readers: new Set([doc.author, ...participantsOf(doc)]),
  };
}

export function createViewsWriter(db: LocalDb, totals: Pick<TotalCache, 'touched' | 'clear'>): ViewsWriter {
  const selectDoc = db.prepare<[string], string>('SELECT doc FROM view_docs WHERE id = ?').pluck();
  // Positional parameters: binding by name (an object per row) took about half of each insert's time.
  const docColumns = `id, ${FILTER_COLUMNS}, created, doc`;
  const insertDoc = db.prepare<DocRow>(
    `INSERT INTO view_docs (${docColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Only for a document with rows already: an upsert with RETURNING cost several times a plain insert.
  const updateDoc = db
    .prepare<[...DocRow, string], number>(
      `UPDATE view_docs SET (${docColumns}) = (?, ?, ?, ?, ?, ?, ?, ?, ?) WHERE id = ? RETURNING rowid`,
    )
    .pluck();
  const dropDoc = db.prepare<[string], number>('DELETE FROM view_docs WHERE id = ? RETURNING rowid').pluck();
  // The search row of a document has its view_docs row's rowid (kept by the upsert above).
  const putSearch = db.prepare<[number, string, string]>(
    `INSERT OR REPLACE INTO ${SEARCH_TABLE} (rowid, fields, text) VALUES (?, ?, ?)`,
  );
  const dropSearch = db.prepare<[number]>(`DELETE FROM ${SEARCH_TABLE} WHERE rowid = ?`);
  // A document's rows are found by their primary key (key, created, id), from what was stored of the
  // document, so no index by id is needed while writing (see SECONDARY_INDEXES).
  const membershipRows = ({ table, column }: Membership) => ({
    drop: db.prepare<[string, string, string]>(
      `DELETE FROM ${table} WHERE ${column} = ? AND created = ? AND id = ?`,
    ),
    add: db.prepare<[string, ...KeyColumns]>(
      `INSERT OR IGNORE INTO ${table} (${column}, id, ${FILTER_COLUMNS}, created)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  });
  const tags = membershipRows(MEMBERSHIPS.tags);
  const tasks = membershipRows(MEMBERSHIPS.openTasks);
  const readers = membershipRows(MEMBERSHIPS.readers);
  const bump = db.prepare(
    'INSERT INTO view_counts (key, n) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET n = n + excluded.n',
  );
  const dropZero = db.prepare('DELETE FROM view_counts WHERE key = ? AND n = 0');

  /**
   * Replaces one document's rows, adding what each count key gains or loses to `delta` (every key
   * the document lies under, before or after, is in it, even when its count stays).
   */
  function write(doc: DocState, old: DocState | undefined, delta: Map<string, number>) {
    // A document without a view_docs row has no other rows either (they are written and dropped with
    // it); its rows are those its stored state gives (they were written from it).
    if (old) {
      const before = rowsOf(old);
      const { id, created } = before.row;
      for (const key of countKeysOf(before.row, before.tagged)) count(delta, key, -1);
      for (const tag of before.tagged) tags.drop.run(tag, created, id);
      for (const user of before.assignees) {
        tasks.drop.run(user, created, id);
        count(delta, MEMBERSHIPS.openTasks.countKey(user), -1);
      }
      for (const user of before.readers) {
        readers.drop.run(user, created, id);
        count(delta, MEMBERSHIPS.readers.countKey(user), -1);
      }
    }
    // A deleted document leaves every view and the search (its events stay).
    if (isDeleted(doc.workflow)) {
      const rowid = old ? dropDoc.get(doc.id) : undefined;
      if (rowid !== undefined) dropSearch.run(rowid);
      return;
    }
    const { row, tagged, assignees, readers: readBy } = rowsOf(doc);
    const columns: KeyColumns = [
      row.id,
      row.form,
      row.author,
      row.state,
      row.step,
      row.iteration,
      row.status,
      row.created,
    ];
    const docRow: DocRow = [...columns, JSON.stringify(doc)];
    // A document the views had no rows of (every document of a rebuild) is inserted: a new rowid.
    const rowid = old ? updateDoc.get(...docRow, row.id)! : Number(insertDoc.run(...docRow).lastInsertRowid);
    // Most events change no searched text: its row stays.
    const text = searchTextOf(doc);
    const before = old && searchTextOf(old);
    if (!before || before.fields !== text.fields || before.text !== text.text)
      putSearch.run(rowid, text.fields, text.text);
    for (const key of countKeysOf(row, tagged)) count(delta, key, 1);
    for (const tag of tagged) tags.add.run(tag, ...columns);
    for (const user of assignees) {
      tasks.add.run(user, ...columns);
      count(delta, MEMBERSHIPS.openTasks.countKey(user), 1);
    }
    for (const user of readBy) {
      readers.add.run(user, ...columns);
      count(delta, MEMBERSHIPS.readers.countKey(user), 1);
    }
  }

  const storedDoc = (id: string) => {
    const doc = selectDoc.get(id);
    return doc === undefined ? undefined : (JSON.parse(doc) as DocState);
  };

  function putAll(docs: Iterable<DocState>, stored?: ReadonlyMap<string, DocState | undefined>) {
    const delta = new Map<string, number>();
    for (const doc of docs) write(doc, stored?.has(doc.id) ? stored.get(doc.id) : storedDoc(doc.id), delta);
    totals.touched(new Set(delta.keys()));
    for (const [key, n] of delta) {
      if (n === 0) continue;
      bump.run(key, n);
      if (n < 0) dropZero.run(key);
    }
  }

  return {
    put: (doc) => putAll([doc]),
    putAll,
    clear() {
      // FTS5 deletes row by row unless told to drop everything at once ('delete-all').
      for (const table of VIEW_TABLES)
        db.exec(
          table === SEARCH_TABLE
            ? `INSERT INTO ${table} (${table}) VALUES ('delete-all')`
            : `DELETE FROM ${table}`,
        );
      totals.clear();
    },
  };
}
