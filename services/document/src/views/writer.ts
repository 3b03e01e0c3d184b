/**
 * Writes documents' rows into the view tables as the projection folds their events (the projection
 * calls it once per batch, with each document the batch changed, inside the batch's transaction): its
 * `view_docs` row, its tag, open-task and reader rows, and the row counts of every key they lie under
 * (summed over the batch, one update per key).
 */
import { STATE_CODES, STATUS_CODES } from '@docflow/contracts';
import type { LocalDb } from '@docflow/kit/eventsourcing';
import { inboxAssignees, isDeleted } from '@docflow/workflow-model';
import { participantsOf } from '../access';
import type { DocState } from '../docForm';
import {
  ALL_COUNT_KEY,
  type Facet,
  FILTER_COLUMNS,
  facetKey,
  INDEXED_COLUMNS,
  MEMBERSHIPS,
  type Membership,
  VIEW_TABLES,
} from './schema';
import type { TotalCache } from './total-cache';

export interface ViewsWriter {
  /** Replaces the document's rows (a deleted document's are removed: it leaves every view). */
  put(doc: DocState): void;
  /** `put` of each document (each once), the counts updated once per key. */
  putAll(docs: Iterable<DocState>): void;
  /** Drops every row (the projection then replays the events). */
  clear(): void;
}

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

export function createViewsWriter(db: LocalDb, totals: Pick<TotalCache, 'touched' | 'clear'>): ViewsWriter {
  const selectOld = db.prepare<[string], DocKeys>(
    'SELECT author, form, state, step, iteration, status FROM view_docs WHERE id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO view_docs (id, form, author, state, step, iteration, status, created, doc)
     VALUES (@id, @form, @author, @state, @step, @iteration, @status, @created, @doc)
     ON CONFLICT(id) DO UPDATE SET form = @form, author = @author, state = @state, step = @step,
       iteration = @iteration, status = @status, created = @created, doc = @doc`,
  );
  const dropDoc = db.prepare('DELETE FROM view_docs WHERE id = ?');
  const membershipRows = ({ table, column }: Membership) => ({
    /** Removes the document's rows; answers their keys. */
    drop: db.prepare<[string], string>(`DELETE FROM ${table} WHERE id = ? RETURNING ${column}`).pluck(),
    add: db.prepare(
      `INSERT OR IGNORE INTO ${table} (${column}, created, id, ${FILTER_COLUMNS})
       VALUES (@key, @created, @id, @form, @author, @state, @step, @iteration, @status)`,
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
  function write(doc: DocState, delta: Map<string, number>) {
    const add = (key: string, n = 1) => delta.set(key, (delta.get(key) ?? 0) + n);
    const old = selectOld.get(doc.id);
    // A document without a view_docs row has no other rows either (they are written and dropped with it).
    if (old) {
      for (const key of countKeysOf(old, tags.drop.all(doc.id))) add(key, -1);
      for (const user of tasks.drop.all(doc.id)) add(MEMBERSHIPS.openTasks.countKey(user), -1);
      for (const user of readers.drop.all(doc.id)) add(MEMBERSHIPS.readers.countKey(user), -1);
    }
    // A deleted document leaves every view (its events stay).
    if (isDeleted(doc.workflow)) {
      if (old) dropDoc.run(doc.id);
      return;
    }
    const row = {
      id: doc.id,
      form: doc.form,
      author: doc.author,
      state: STATE_CODES[doc.phase],
      step: doc.step,
      iteration: doc.iteration,
      status: STATUS_CODES[doc.status],
      created: doc.created,
    };
    upsert.run({ ...row, doc: JSON.stringify(doc) });
    const tagged = new Set(doc.tags);
    for (const key of countKeysOf(row, tagged)) add(key);
    for (const tag of tagged) tags.add.run({ ...row, key: tag });
    for (const user of inboxAssignees(doc.workflow)) {
      if (tasks.add.run({ ...row, key: user }).changes) add(MEMBERSHIPS.openTasks.countKey(user));
    }
    for (const user of new Set([doc.author, ...participantsOf(doc)])) {
      if (readers.add.run({ ...row, key: user }).changes) add(MEMBERSHIPS.readers.countKey(user));
    }
  }

  function putAll(docs: Iterable<DocState>) {
    const delta = new Map<string, number>();
    for (const doc of docs) write(doc, delta);
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
      for (const table of VIEW_TABLES) db.exec(`DELETE FROM ${table}`);
      totals.clear();
    },
  };
}
