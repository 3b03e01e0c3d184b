/**
 * The tables of the view read model and their versioned migration. One row per document in
 * `view_docs` (the columns views filter on, and the document state as JSON), and beside it the rows of
 * its tags, its open tasks' assignees and its readers (the memberships). Each membership row repeats
 * the document's filter columns and `created`, so one covering key range of one table answers a count
 * or a page without a lookup per row. `view_counts` keeps the exact number of rows under each key, so
 * the planner can pick the smallest range (and answer a total without walking it).
 */
import type { LocalDb } from '@docflow/kit/eventsourcing';

/** The projection that feeds these tables: its checkpoint is dropped with the rows. */
export const VIEWS_PROJECTION = 'views';

/** Raise it whenever the tables below change: a local.db of another version is dropped and replayed. */
const SCHEMA_VERSION = '4';

/** The filter columns every row carries, beside `created` and `id`, with their types. */
const FILTER_TYPES = {
  form: 'TEXT',
  author: 'TEXT',
  state: 'INTEGER',
  step: 'INTEGER',
  iteration: 'INTEGER',
  status: 'INTEGER',
} as const;
export type FilterColumn = keyof typeof FILTER_TYPES;
/** The filter columns, comma-separated, in the order of the tables. */
export const FILTER_COLUMNS = Object.keys(FILTER_TYPES).join(', ');
const FILTERS = Object.entries(FILTER_TYPES)
  .map(([column, type]) => `${column} ${type} NOT NULL`)
  .join(', ');

/**
 * The full-text index of the documents (search.ts): one row per document, its rowid the rowid of the
 * document's `view_docs` row. Contentless (the text is not stored twice), rows deletable by rowid.
 * That rowid is no INTEGER PRIMARY KEY, which a VACUUM may renumber: nothing vacuums local.db, and one
 * that was vacuumed needs its views rebuilt.
 */
export const SEARCH_TABLE = 'view_search';

/** A table of one row per (key, document): which documents carry a tag, have a user's open task, ... */
export interface Membership {
  table: string;
  /** The key column. */
  column: string;
  /** Its row count's key in `view_counts`. */
  countKey(value: string): string;
}

export const MEMBERSHIPS = {
  tags: { table: 'view_doc_tags', column: 'tag', countKey: (v: string) => `t:${v}` },
  openTasks: { table: 'view_open_tasks', column: 'user_id', countKey: (v: string) => `i:${v}` },
  readers: { table: 'view_doc_readers', column: 'user_id', countKey: (v: string) => `r:${v}` },
} as const satisfies Record<string, Membership>;

/** `view_counts` key of every document. */
export const ALL_COUNT_KEY = 'n';

/** The columns a facet count is kept for: every combination of their values a document has. */
export interface Facet {
  state: number;
  step: number;
  iteration: number;
  status: number;
  form: string;
}
/** `view_counts` keys of facets start with it (`c:state|step|iteration|status|form`). */
export const FACET_PREFIX = 'c:';
export const facetKey = (f: Facet): string =>
  `${FACET_PREFIX}${f.state}|${f.step}|${f.iteration}|${f.status}|${f.form}`;
/** The facet of a `view_counts` key that `facetKey` made. */
export function facetOf(key: string): Facet {
  const [state, step, iteration, status, ...form] = key.slice(FACET_PREFIX.length).split('|');
  return {
    state: Number(state),
    step: Number(step),
    iteration: Number(iteration),
    status: Number(status),
    form: form.join('|'),
  };
}

/** The columns of `view_docs` with an index of their own (`view_docs_<column>`), and their count keys. */
export const INDEXED_COLUMNS = {
  author: (v: string) => `a:${v}`,
  form: (v: string) => `f:${v}`,
  state: (v: number) => `s:${v}`,
} as const;
export type IndexedColumn = keyof typeof INDEXED_COLUMNS;

/**
 * A key's documents lie in one range of the primary key, newest last (pages are read from it).
 * The writer finds a document's rows by that key too (from the document's stored state).
 */
const membershipTable = ({ table, column }: Membership) => `
  CREATE TABLE IF NOT EXISTS ${table} (
    ${column} TEXT NOT NULL, created TEXT NOT NULL, id TEXT NOT NULL, ${FILTERS},
    PRIMARY KEY (${column}, created, id)) WITHOUT ROWID;`;

/**
 * The indexes only listings read (the writer finds a document's rows by their primary keys): an
 * offline rebuild drops them while it replays and builds each once at the end (dropSecondaryIndexes).
 * A membership's `_count` range is where a listing's form and author narrow a count further; its `_doc`
 * index probes a membership that does not drive the listing.
 */
const SECONDARY_INDEXES: Record<string, string> = {
  view_docs_newest: `view_docs (created, id, ${FILTER_COLUMNS})`,
  ...Object.fromEntries(
    Object.keys(INDEXED_COLUMNS).map((c) => [
      `view_docs_${c}`,
      `view_docs (${c}, created, id, ${FILTER_COLUMNS})`,
    ]),
  ),
  ...Object.fromEntries(
    Object.values(MEMBERSHIPS).flatMap(({ table, column }) => [
      [`${table}_count`, `${table} (${column}, form, author, state, status, step, iteration)`],
      [`${table}_doc`, `${table} (id, ${column})`],
    ]),
  ),
};

const TABLES = `
  CREATE TABLE IF NOT EXISTS view_docs (
    id TEXT PRIMARY KEY, ${FILTERS}, created TEXT NOT NULL, doc TEXT NOT NULL);
  ${Object.values(MEMBERSHIPS).map(membershipTable).join('\n')}
  CREATE TABLE IF NOT EXISTS view_counts (key TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
  CREATE VIRTUAL TABLE IF NOT EXISTS ${SEARCH_TABLE} USING fts5(fields, text,
    content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');
`;
const INDEXES = Object.entries(SECONDARY_INDEXES)
  .map(([name, on]) => `CREATE INDEX IF NOT EXISTS ${name} ON ${on};`)
  .join('\n');
const SCHEMA = `${TABLES}\n${INDEXES}`;

/** The tables filled from document events (deputies come from identity's events: see deputies.ts). */
export const VIEW_TABLES = [
  'view_docs',
  ...Object.values(MEMBERSHIPS).map((m) => m.table),
  'view_counts',
  SEARCH_TABLE,
];

/**
 * Creates the tables; when local.db holds another layout (or one from before versioning), drops the
 * rows the document events give, and the projection's place in them, in one transaction, so the
 * projection replays every event into the new tables.
 */
export function migrateViewsSchema(db: LocalDb): void {
  db.exec('CREATE TABLE IF NOT EXISTS view_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const version = db.prepare<[], string>("SELECT value FROM view_meta WHERE key = 'schema'").pluck().get();
  if (version !== SCHEMA_VERSION) {
    db.transaction(() => {
      for (const table of VIEW_TABLES) db.exec(`DROP TABLE IF EXISTS ${table}`);
      db.exec(SCHEMA);
      db.prepare('DELETE FROM checkpoints WHERE name = ?').run(VIEWS_PROJECTION);
      db.prepare('DELETE FROM handled_messages WHERE consumer = ?').run(VIEWS_PROJECTION);
      db.prepare(
        "INSERT INTO view_meta (key, value) VALUES ('schema', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      ).run(SCHEMA_VERSION);
    })();
  }
  db.exec(SCHEMA);
}

/** Drops the indexes only listings read (see SECONDARY_INDEXES): until createSecondaryIndexes, nothing may list. */
export function dropSecondaryIndexes(db: LocalDb): void {
  for (const name of Object.keys(SECONDARY_INDEXES)) db.exec(`DROP INDEX IF EXISTS ${name}`);
}

/** Builds each missing index only listings read (migrateViewsSchema does too, after a crash between the two). */
export function createSecondaryIndexes(db: LocalDb, onIndex?: (name: string) => void): void {
  for (const [name, on] of Object.entries(SECONDARY_INDEXES)) {
    onIndex?.(name);
    db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON ${on}`);
  }
}

/** Merges the search index's segments into one (after an offline rebuild: fewer segments, faster matches). */
export function optimizeSearchIndex(db: LocalDb): void {
  db.exec(`INSERT INTO ${SEARCH_TABLE} (${SEARCH_TABLE}) VALUES ('optimize')`);
}

/** Page cache of local.db during an offline rebuild (KiB): the rows being appended to stay in memory. */
const REBUILD_CACHE_KIB = 256 * 1024;
/**
 * WAL pages before local.db's WAL is copied into the file during an offline rebuild (SQLite's
 * default: 1,000): every batch rewrites the same last pages of each key's range, and each copy writes
 * them once more.
 */
const REBUILD_WAL_PAGES = 256 * 1024;

/** local.db's settings for an offline rebuild (`views:rebuild`), for this connection only. */
export function tuneForOfflineRebuild(db: LocalDb): void {
  db.pragma(`cache_size = -${REBUILD_CACHE_KIB}`);
  db.pragma(`wal_autocheckpoint = ${REBUILD_WAL_PAGES}`);
}
