/**
 * The view read model, projected from the document events: one row per document (the columns views
 * filter on, and the document state as JSON), and beside it the rows of its tags, its open tasks'
 * assignees and its readers. Each of those rows repeats the document's filter columns and `created`,
 * so one covering key range of one table answers a count or a page without a lookup per row.
 *
 * A listing is driven by the range with the fewest rows (exact row counts per key are kept in
 * `view_counts`), ordered as the listing is (`created DESC, id DESC`); the other conditions are
 * checked on the range's own rows, a tag or membership not driving by an index probe (the page) or,
 * for the count when its range is of a similar size, by intersecting the two ranges (a merge).
 */
import { STATE_CODES, STATUS_CODES, type ViewId, type ViewQuery } from '@docflow/contracts';
import type { LocalDb, Principal } from '@docflow/kit';
import { inboxAssignees, isDeleted } from '@docflow/workflow-model';
import { participantsOf } from '../access';
import type { DocState } from '../docForm';

/** The projection that feeds this read model: its checkpoint is dropped with the rows. */
export const VIEWS_PROJECTION = 'views';

/** Raise it whenever the tables below change: a local.db of another version is dropped and replayed. */
const SCHEMA_VERSION = '2';

/** The filter columns every row carries, beside `created` and `id`. */
const FILTERS =
  'form TEXT NOT NULL, author TEXT NOT NULL, state INTEGER NOT NULL, step INTEGER NOT NULL, iteration INTEGER NOT NULL, status INTEGER NOT NULL';
const COVER = 'form, author, state, step, iteration, status';

/**
 * One row per (key, document): a key's documents lie in one range, newest last (pages are read from it).
 * Counts use the second range, where a listing's form and author narrow it further.
 */
const keyedTable = (name: string, key: string) => `
  CREATE TABLE IF NOT EXISTS ${name} (
    ${key} TEXT NOT NULL, created TEXT NOT NULL, id TEXT NOT NULL, ${FILTERS},
    PRIMARY KEY (${key}, created, id)) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS ${name}_doc ON ${name} (id, ${key});
  CREATE INDEX IF NOT EXISTS ${name}_count ON ${name} (${key}, form, author, state, status, step, iteration);`;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS view_docs (
    id TEXT PRIMARY KEY, ${FILTERS}, created TEXT NOT NULL, doc TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS view_docs_newest ON view_docs (created, id, ${COVER});
  CREATE INDEX IF NOT EXISTS view_docs_author ON view_docs (author, created, id, ${COVER});
  CREATE INDEX IF NOT EXISTS view_docs_form ON view_docs (form, created, id, ${COVER});
  CREATE INDEX IF NOT EXISTS view_docs_state ON view_docs (state, created, id, ${COVER});
  ${keyedTable('view_doc_tags', 'tag')}
  ${keyedTable('view_open_tasks', 'user_id')}
  ${keyedTable('view_doc_readers', 'user_id')}
  CREATE TABLE IF NOT EXISTS view_counts (key TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
`;

/** The rows a rebuild drops (deputies come from the identity service, not from document events). */
const TABLES = ['view_docs', 'view_doc_tags', 'view_open_tasks', 'view_doc_readers', 'view_counts'];

/** A membership range up to this many times the driving range's size is intersected with it to count. */
const INTERSECT_RATIO = 4;

/** view_counts keys: documents in all, and per author, form, state, tag, open-task assignee, reader. */
const ALL = 'n';
const countKey = {
  author: (v: string) => `a:${v}`,
  form: (v: string) => `f:${v}`,
  state: (v: number) => `s:${v}`,
  tag: (v: string) => `t:${v}`,
  task: (v: string) => `i:${v}`,
  reader: (v: string) => `r:${v}`,
};

export interface ViewPage {
  total: number;
  docs: DocState[];
}

/** The statements a listing runs (for benchmarks and query plans). */
export interface ViewPlan {
  /** null when the total is read from the kept row counts. */
  count: { sql: string; params: unknown[] } | null;
  countFromCounts: number;
  page: { sql: string; params: unknown[] };
}

export interface ViewsReadModel {
  get(id: string): DocState | undefined;
  put(doc: DocState): void;
  query(view: ViewId, query: ViewQuery, principal: Principal): ViewPage;
  plan(view: ViewId, query: ViewQuery, principal: Principal): ViewPlan;
  /** Drops every row (the projection then replays the events). */
  clear(): void;
}

/** A key range that can drive a listing: the documents of `keys` in `table`'s `column`. */
interface Driver {
  table: string;
  /** Index of view_docs to use (view_docs has one per key column). */
  index?: string;
  column?: string;
  keys: unknown[];
  /** Sum of the kept row counts of the keys: the range's size. */
  rows: number;
  /** Whether a document may lie in the range more than once (several keys of a membership). */
  repeats: boolean;
  /** Which condition of the listing it is (not checked again on its rows). */
  condition: Condition;
}

type Condition =
  | { kind: 'column'; column: string; values: unknown[] }
  | { kind: 'member'; table: string; column: string; values: unknown[] };

function upgrade(db: LocalDb) {
  db.exec('CREATE TABLE IF NOT EXISTS view_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const version = db.prepare<[], string>("SELECT value FROM view_meta WHERE key = 'schema'").pluck().get();
  if (version === SCHEMA_VERSION) return;
  // Another layout (or none): drop the rows the document events give, and the projection's place in
  // them, in one transaction, so the projection replays every event into the new tables.
  db.transaction(() => {
    for (const table of TABLES) db.exec(`DROP TABLE IF EXISTS ${table}`);
    db.exec(SCHEMA);
    db.prepare('DELETE FROM checkpoints WHERE name = ?').run(VIEWS_PROJECTION);
    db.prepare('DELETE FROM handled_messages WHERE consumer = ?').run(VIEWS_PROJECTION);
    db.prepare(
      "INSERT INTO view_meta (key, value) VALUES ('schema', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    ).run(SCHEMA_VERSION);
  })();
}

export function createViewsReadModel(db: LocalDb): ViewsReadModel {
  db.exec(`CREATE TABLE IF NOT EXISTS view_deputies (
    user_id TEXT PRIMARY KEY, deputy_id TEXT NOT NULL, enabled INTEGER NOT NULL)`);
  upgrade(db);
  db.exec(SCHEMA);

  const select = db.prepare<[string], string>('SELECT doc FROM view_docs WHERE id = ?').pluck();
  const selectOld = db.prepare<[string], { author: string; form: string; state: number }>(
    'SELECT author, form, state FROM view_docs WHERE id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO view_docs (id, form, author, state, step, iteration, status, created, doc)
     VALUES (@id, @form, @author, @state, @step, @iteration, @status, @created, @doc)
     ON CONFLICT(id) DO UPDATE SET form = @form, author = @author, state = @state, step = @step,
       iteration = @iteration, status = @status, created = @created, doc = @doc`,
  );
  const keyed = (table: string, key: string) => ({
    drop: db.prepare<[string], string>(`DELETE FROM ${table} WHERE id = ? RETURNING ${key}`).pluck(),
    add: db.prepare(
      `INSERT OR IGNORE INTO ${table} (${key}, created, id, ${COVER})
       VALUES (@key, @created, @id, @form, @author, @state, @step, @iteration, @status)`,
    ),
  });
  const tags = keyed('view_doc_tags', 'tag');
  const tasks = keyed('view_open_tasks', 'user_id');
  const readers = keyed('view_doc_readers', 'user_id');
  const dropDoc = db.prepare('DELETE FROM view_docs WHERE id = ?');
  const bump = db.prepare(
    'INSERT INTO view_counts (key, n) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET n = n + excluded.n',
  );
  const dropZero = db.prepare('DELETE FROM view_counts WHERE key = ? AND n = 0');
  const countOf = db.prepare<[string], number>('SELECT n FROM view_counts WHERE key = ?').pluck();
  const actingFor = db
    .prepare<[string], string>('SELECT user_id FROM view_deputies WHERE deputy_id = ? AND enabled = 1')
    .pluck();
  // Listings are built from a few shapes: prepare each once.
  const prepare = (sql: string) => db.prepare<unknown[], unknown>(sql);
  const statements = new Map<string, ReturnType<typeof prepare>>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size > 500) statements.clear();
      statement = prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };

  /** Every key the document counts under. */
  function keysOf(doc: { author: string; form: string; state: number }, tagged: Iterable<string>) {
    const keys = [ALL, countKey.author(doc.author), countKey.form(doc.form), countKey.state(doc.state)];
    for (const tag of tagged) keys.push(countKey.tag(tag));
    return keys;
  }

  function plan(view: ViewId, query: ViewQuery, principal: Principal): ViewPlan {
    const conditions: Condition[] = [];
    const acting = () => [principal.subject, ...actingFor.all(principal.subject)];
    if (view === 'mydocs') {
      conditions.push({ kind: 'column', column: 'author', values: [principal.subject] });
    } else if (view === 'inbox') {
      conditions.push({ kind: 'member', table: 'view_open_tasks', column: 'user_id', values: acting() });
    } else if (!principal.roles.includes('svcAdminDocsRW')) {
      conditions.push({ kind: 'member', table: 'view_doc_readers', column: 'user_id', values: acting() });
    }
    for (const column of ['state', 'step', 'iteration', 'status'] as const) {
      if (query[column] !== undefined) conditions.push({ kind: 'column', column, values: [query[column]] });
    }
    for (const column of ['form', 'author'] as const) {
      const values = query[column];
      if (values?.length) conditions.push({ kind: 'column', column, values: [...new Set(values)] });
    }
    for (const tag of new Set(query.tags ?? [])) {
      conditions.push({ kind: 'member', table: 'view_doc_tags', column: 'tag', values: [tag] });
    }

    const rowsOf = (keys: string[]) => keys.reduce((sum, key) => sum + (countOf.get(key) ?? 0), 0);
    let driver: Driver = {
      table: 'view_docs',
      index: 'view_docs_newest',
      keys: [],
      rows: rowsOf([ALL]),
      repeats: false,
      condition: { kind: 'column', column: '', values: [] },
    };
    const rows = new Map<Condition, number>();
    for (const condition of conditions) {
      let candidate: Driver | undefined;
      if (condition.kind === 'member') {
        const key =
          condition.table === 'view_doc_tags'
            ? countKey.tag
            : condition.table === 'view_open_tasks'
              ? countKey.task
              : countKey.reader;
        candidate = {
          table: condition.table,
          column: condition.column,
          keys: condition.values,
          rows: rowsOf(condition.values.map((v) => key(v as string))),
          repeats: condition.values.length > 1,
          condition,
        };
      } else if (['author', 'form', 'state'].includes(condition.column)) {
        const key = countKey[condition.column as 'author' | 'form' | 'state'] as (v: unknown) => string;
        candidate = {
          table: 'view_docs',
          index: `view_docs_${condition.column}`,
          column: condition.column,
          keys: condition.values,
          rows: rowsOf(condition.values.map(key)),
          repeats: false,
          condition,
        };
      }
      if (candidate) rows.set(condition, candidate.rows);
      if (candidate && candidate.rows < driver.rows) driver = candidate;
    }

    // The other conditions, checked on the driving range's rows: the columns first, the most selective
    // first (estimated from the kept counts; 1/2 where none is kept), then the memberships (a probe each).
    const all = Math.max(1, rowsOf([ALL]));
    const selectivity = (c: Condition) => (c.kind === 'member' ? 2 : (rows.get(c) ?? all / 2) / all);
    const rest = conditions
      .filter((c) => c !== driver.condition)
      .sort((x, y) => selectivity(x) - selectivity(y));
    // A membership whose range is not much larger than the driving one is cheaper to count by
    // intersecting the two ranges (both ordered by created, id) than by a probe per row.
    const intersected = (c: Condition) =>
      c.kind === 'member' && (rows.get(c) ?? Number.POSITIVE_INFINITY) <= INTERSECT_RATIO * driver.rows;
    // view_docs: the driving key's index; a keyed table: its primary key (newest first) for pages, its
    // filter index for counts.
    const using = (counting: boolean) =>
      driver.index
        ? ` INDEXED BY ${driver.index}`
        : counting
          ? ` INDEXED BY ${driver.table}_count`
          : ' NOT INDEXED';
    const select = (columns: string, checked: Condition[], counting = true) => {
      const from = `${driver.table} d${using(counting)}`;
      const where: string[] = [];
      const params: unknown[] = [];
      const inList = (values: unknown[]) => {
        params.push(...values);
        return values.length === 1 ? '= ?' : `IN (${values.map(() => '?').join(', ')})`;
      };
      if (driver.column) where.push(`d.${driver.column} ${inList(driver.keys)}`);
      for (const c of checked) {
        if (c.kind === 'column') where.push(`d.${c.column} ${inList(c.values)}`);
        else
          where.push(
            `EXISTS (SELECT 1 FROM ${c.table} m WHERE m.id = d.id AND m.${c.column} ${inList(c.values)})`,
          );
      }
      return {
        sql: `SELECT ${columns} FROM ${from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`,
        params,
      };
    };

    // Only the driving range, every document once in it: its size is the total (count stays null).
    let count: ViewPlan['count'] = null;
    if (rest.length > 0 || driver.repeats) {
      const ranges = rest.filter(intersected) as Extract<Condition, { kind: 'member' }>[];
      if (ranges.length === 0) {
        count = select(`count(${driver.repeats ? 'DISTINCT d.id' : '*'})`, rest);
      } else {
        const own = select(
          'd.created, d.id',
          rest.filter((c) => !intersected(c)),
          false, // ordered like the ranges it is merged with
        );
        const params = [...own.params];
        const others = ranges.map((c) => {
          params.push(...c.values);
          return `SELECT created, id FROM ${c.table} WHERE ${c.column} IN (${c.values.map(() => '?').join(', ')})`;
        });
        count = { sql: `SELECT count(*) FROM (${[own.sql, ...others].join(' INTERSECT ')})`, params };
      }
    }
    const page = select(`${driver.repeats ? 'DISTINCT ' : ''}d.id, d.created`, rest, false);
    return {
      count,
      countFromCounts: driver.rows,
      page: {
        sql: `${page.sql} ORDER BY d.created DESC, d.id DESC LIMIT ? OFFSET ?`,
        params: [...page.params, query.pageSize, query.first],
      },
    };
  }

  return {
    get(id) {
      const doc = select.get(id);
      return doc ? (JSON.parse(doc) as DocState) : undefined;
    },
    put(doc) {
      const delta = new Map<string, number>();
      const old = selectOld.get(doc.id);
      if (old) {
        for (const key of keysOf(old, tags.drop.all(doc.id))) delta.set(key, (delta.get(key) ?? 0) - 1);
      }
      for (const user of tasks.drop.all(doc.id)) {
        const key = countKey.task(user);
        delta.set(key, (delta.get(key) ?? 0) - 1);
      }
      for (const user of readers.drop.all(doc.id)) {
        const key = countKey.reader(user);
        delta.set(key, (delta.get(key) ?? 0) - 1);
      }
      const add = (key: string) => delta.set(key, (delta.get(key) ?? 0) + 1);
      // A deleted document leaves every view (its events stay).
      if (isDeleted(doc.workflow)) {
        dropDoc.run(doc.id);
      } else {
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
        for (const key of keysOf(row, tagged)) add(key);
        for (const tag of tagged) tags.add.run({ ...row, key: tag });
        for (const user of inboxAssignees(doc.workflow)) {
          if (tasks.add.run({ ...row, key: user }).changes) add(countKey.task(user));
        }
        for (const user of new Set([doc.author, ...participantsOf(doc)])) {
          if (readers.add.run({ ...row, key: user }).changes) add(countKey.reader(user));
        }
      }
      for (const [key, n] of delta) {
        if (n === 0) continue;
        bump.run(key, n);
        if (n < 0) dropZero.run(key);
      }
    },
    plan,
    query(view, query, principal) {
      const { count, countFromCounts, page } = plan(view, query, principal);
      const total = count
        ? ((prepared(count.sql)
            .pluck()
            .get(...count.params) as number | undefined) ?? 0)
        : countFromCounts;
      const ids = prepared(page.sql)
        .all(...page.params)
        .map((row) => (row as { id: string }).id);
      const docs: DocState[] = [];
      for (const id of ids) {
        const doc = select.get(id);
        if (doc) docs.push(JSON.parse(doc) as DocState);
      }
      return { total, docs };
    },
    clear() {
      for (const table of TABLES) db.exec(`DELETE FROM ${table}`);
    },
  };
}
