/**
 * The view read model: one row per document with the columns views filter on, its tags, and the
 * document state as JSON, projected from the document events. Queries are plain SQL with indexes.
 */
import { STATE_CODES, STATUS_CODES, type ViewId, type ViewQuery } from '@docflow/contracts';
import type { LocalDb, Principal } from '@docflow/kit';
import { inboxAssignees, isDeleted } from '@docflow/workflow';
import { participantsOf } from '../access';
import type { DocState } from '../docForm';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS view_docs (
    id TEXT PRIMARY KEY, form TEXT NOT NULL, author TEXT NOT NULL,
    state INTEGER NOT NULL, step INTEGER NOT NULL, iteration INTEGER NOT NULL, status INTEGER NOT NULL,
    created TEXT NOT NULL, doc TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS view_docs_newest ON view_docs (created DESC, id DESC);
  CREATE INDEX IF NOT EXISTS view_docs_author ON view_docs (author, created DESC, id DESC);
  CREATE TABLE IF NOT EXISTS view_doc_tags (tag TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (tag, id)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS view_open_tasks (
    user_id TEXT NOT NULL, doc_id TEXT NOT NULL, PRIMARY KEY (user_id, doc_id)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS view_doc_readers (
    user_id TEXT NOT NULL, doc_id TEXT NOT NULL, PRIMARY KEY (user_id, doc_id)) WITHOUT ROWID;
  -- put() replaces a document's rows by its id: without these it would scan whole tables (quadratic replay).
  CREATE INDEX IF NOT EXISTS view_doc_tags_doc ON view_doc_tags (id);
  CREATE INDEX IF NOT EXISTS view_open_tasks_doc ON view_open_tasks (doc_id);
  CREATE INDEX IF NOT EXISTS view_doc_readers_doc ON view_doc_readers (doc_id);
  CREATE TABLE IF NOT EXISTS view_deputies (
    user_id TEXT PRIMARY KEY, deputy_id TEXT NOT NULL, enabled INTEGER NOT NULL);
`;

/** The rows a rebuild drops (deputies come from the identity service, not from document events). */
const TABLES = ['view_docs', 'view_doc_tags', 'view_open_tasks', 'view_doc_readers'];

/** The caller, and every user whose enabled deputy the caller is. */
const ACTING_FOR = `(SELECT ? UNION SELECT user_id FROM view_deputies WHERE deputy_id = ? AND enabled = 1)`;

export interface ViewPage {
  total: number;
  docs: DocState[];
}

export interface ViewsReadModel {
  get(id: string): DocState | undefined;
  put(doc: DocState): void;
  query(view: ViewId, query: ViewQuery, principal: Principal): ViewPage;
  /** Drops every row (the projection then replays the events). */
  clear(): void;
}

export function createViewsReadModel(db: LocalDb): ViewsReadModel {
  db.exec(SCHEMA);
  const select = db.prepare<[string], string>('SELECT doc FROM view_docs WHERE id = ?').pluck();
  const upsert = db.prepare(
    `INSERT INTO view_docs (id, form, author, state, step, iteration, status, created, doc)
     VALUES (@id, @form, @author, @state, @step, @iteration, @status, @created, @doc)
     ON CONFLICT(id) DO UPDATE SET form = @form, author = @author, state = @state, step = @step,
       iteration = @iteration, status = @status, created = @created, doc = @doc`,
  );
  const dropTags = db.prepare('DELETE FROM view_doc_tags WHERE id = ?');
  const addTag = db.prepare('INSERT OR IGNORE INTO view_doc_tags (tag, id) VALUES (?, ?)');
  const dropTasks = db.prepare('DELETE FROM view_open_tasks WHERE doc_id = ?');
  const addTask = db.prepare('INSERT OR IGNORE INTO view_open_tasks (user_id, doc_id) VALUES (?, ?)');
  const dropReaders = db.prepare('DELETE FROM view_doc_readers WHERE doc_id = ?');
  const addReader = db.prepare('INSERT OR IGNORE INTO view_doc_readers (user_id, doc_id) VALUES (?, ?)');
  const dropDoc = db.prepare('DELETE FROM view_docs WHERE id = ?');

  return {
    get(id) {
      const doc = select.get(id);
      return doc ? (JSON.parse(doc) as DocState) : undefined;
    },
    put(doc) {
      dropTags.run(doc.id);
      dropTasks.run(doc.id);
      dropReaders.run(doc.id);
      // A deleted document leaves every view (its events stay).
      if (isDeleted(doc.workflow)) {
        dropDoc.run(doc.id);
        return;
      }
      upsert.run({
        id: doc.id,
        form: doc.form,
        author: doc.author,
        state: STATE_CODES[doc.phase],
        step: doc.step,
        iteration: doc.iteration,
        status: STATUS_CODES[doc.status],
        created: doc.created,
        doc: JSON.stringify(doc),
      });
      for (const tag of doc.tags) addTag.run(tag, doc.id);
      for (const user of inboxAssignees(doc.workflow)) addTask.run(user, doc.id);
      for (const user of new Set([doc.author, ...participantsOf(doc)])) addReader.run(user, doc.id);
    },
    query(view, query, principal) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (view === 'mydocs') {
        where.push('author = ?');
        params.push(principal.subject);
      } else if (view === 'inbox') {
        where.push(`id IN (SELECT doc_id FROM view_open_tasks WHERE user_id IN ${ACTING_FOR})`);
        params.push(principal.subject, principal.subject);
      } else if (!principal.roles.includes('svcAdminDocsRW')) {
        where.push(`id IN (SELECT doc_id FROM view_doc_readers WHERE user_id IN ${ACTING_FOR})`);
        params.push(principal.subject, principal.subject);
      }
      for (const column of ['state', 'step', 'iteration', 'status'] as const) {
        if (query[column] !== undefined) {
          where.push(`${column} = ?`);
          params.push(query[column]);
        }
      }
      for (const column of ['form', 'author'] as const) {
        const values = query[column];
        if (values?.length) {
          where.push(`${column} IN (${values.map(() => '?').join(', ')})`);
          params.push(...values);
        }
      }
      for (const tag of query.tags ?? []) {
        where.push('id IN (SELECT id FROM view_doc_tags WHERE tag = ?)');
        params.push(tag);
      }
      const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const total =
        db
          .prepare<unknown[], number>(`SELECT count(*) FROM view_docs ${clause}`)
          .pluck()
          .get(...params) ?? 0;
      const docs = db
        .prepare<unknown[], string>(
          `SELECT doc FROM view_docs ${clause} ORDER BY created DESC, id DESC LIMIT ? OFFSET ?`,
        )
        .pluck()
        .all(...params, query.pageSize, query.first)
        .map((d) => JSON.parse(d) as DocState);
      return { total, docs };
    },
    clear() {
      for (const table of TABLES) db.exec(`DELETE FROM ${table}`);
    },
  };
}
