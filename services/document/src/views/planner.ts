/**
 * Plans a listing: a view, its filters and its caller → the SQL of the count and of the page, with
 * their parameters. Pure: the row counts it weighs the ranges by are given (see `countKeysFor`).
 *
 * A listing is driven by the key range with the fewest rows, ordered as the listing is
 * (`created DESC, id DESC`); the other conditions are checked on the range's own rows.
 *
 * | driving range (the fewest rows)             | page: read from                      | count: read from         |
 * |---------------------------------------------|--------------------------------------|--------------------------|
 * | all documents (admin `all`; only step,      | `view_docs_newest`, newest first,    | the kept count `n`; with |
 * |   iteration or status filters: no range)    |   stops at the page                  |   filters, the facets    |
 * | an author, form or state (`mydocs`: author) | `view_docs_<column>` (column = ?)    | the same index           |
 * | a tag, the caller's open tasks (`inbox`),   | the table's primary key (key,        | its `_count` index (key, |
 * |   the caller's documents (`all`, not admin) |   created, id): newest first         |   form, author, ...)     |
 * | several keys (two forms; a deputy's `inbox` | each key's range, merged newest      | as above; a deputy's:    |
 * |   or `all`: theirs and their absentees')    |   first (a deputy's: UNION, once)    |   `count(DISTINCT id)`   |
 *
 * A listing of all documents narrowed only by state, step, iteration, status and form (admin `all`)
 * takes its total from the kept facet counts (one per combination of those values, see schema.ts)
 * rather than a walk of its range, which for a status alone would be every document.
 *
 * Every other condition: a column is compared on the range's rows (the most selective first); a
 * membership is probed per row through its `_doc` index (id, key), or, for the count when its range is
 * at most INTERSECT_RATIO times the driving one, intersected with it (a merge of two ranges ordered by
 * created, id). When the driving range is the listing's only condition and holds each document once,
 * the total is its kept row count and no count statement runs.
 *
 * A condition of several values checked on a row binds them as one parameter (a JSON array read by
 * `json_each`), and several tags so checked are one term: the statements grow with the lists' sum,
 * never their product, though a merged page repeats the checks in every arm (see checksSql).
 *
 * A search (`q`) is driven by its FTS5 matches (planSearch), unless it has many matches and only common
 * terms: then by the listing's range as above, each row probed for the search (planListing).
 */
import type { ViewId, ViewQuery } from '@docflow/contracts';
import type { Principal } from '@docflow/kit/http';
import { readsEveryDocument } from '../documents/access';
import {
  ALL_COUNT_KEY,
  FACET_PREFIX,
  type FilterColumn,
  facetOf,
  INDEXED_COLUMNS,
  type IndexedColumn,
  MEMBERSHIPS,
  type Membership,
  SEARCH_TABLE,
} from './schema';
import { matchExpression, SEARCH_WEIGHTS, searchTerms } from './search';

/** A membership range up to this many times the driving range's size is intersected with it to count. */
const INTERSECT_RATIO = 4;

export interface ListingRequest {
  view: ViewId;
  query: ViewQuery;
  principal: Principal;
  /** The users whose enabled deputy the caller is, when `readsAsDeputy` (else not looked at). */
  standsInFor: readonly string[];
}

export interface Statement {
  sql: string;
  params: unknown[];
}

/** The statements a listing runs (also for benchmarks and query plans). */
export interface ViewPlan {
  /** null when the total is read from the kept row counts. */
  count: Statement | null;
  /**
   * Set when the count stops after this many + 1 rows (a search with many matches): a count above it
   * is reported as this many, "at least".
   */
  countCap?: number;
  countFromCounts: number;
  /**
   * The `view_counts` keys of each condition of the listing that has keys (a tag, an author, the
   * caller's readers...): a write touching none of one condition's keys leaves the total as it was.
   */
  countConditions: string[][];
  /** Selects `id` (and `created`) of the page's documents, in the listing's order. */
  page: Statement;
  /**
   * Every match (`id`, `created`) in the listing's order, up to a LIMIT the caller adds as its last
   * parameter: the count's rows (its range, or its merge of ranges), sorted. Set with `count`, except
   * for a search (`q`).
   */
  matches: Statement | null;
}

type Condition =
  | { kind: 'column'; column: FilterColumn; values: unknown[] }
  | { kind: 'member'; membership: Membership; values: string[] }
  | { kind: 'match'; expression: string };

/** What the reader found out about a search's terms, with bounded counts (reader.ts). */
export interface SearchEstimate {
  /** The terms (`searchTerms`) found in at least `many` documents. */
  commonTerms: ReadonlySet<string>;
  /**
   * Set when every term is common and the whole search matches at least `many` documents: the FTS5
   * query to probe rows with, the last term's prefix spelled out as the words it stands for (a prefix
   * query reads every document of every such word at each probe; a word is a seek).
   */
  walk?: string;
  /** COMMON_TERM_DOCS: also the bound up to which a search with many matches counts its total. */
  many: number;
}

const NO_ESTIMATE: SearchEstimate = { commonTerms: new Set(), many: 0 };

/** A key range that can drive a listing: the rows of `keys` in `table`'s `column`. */
interface Driver {
  table: string;
  /** Index of view_docs to use (view_docs has one per indexed column). */
  index?: string;
  column?: string;
  keys: unknown[];
  /** Sum of the kept row counts of the keys: the range's size. */
  rows: number;
  /** Whether a document may lie in the range more than once (several keys of a membership). */
  repeats: boolean;
  /** Which condition of the listing it is (not checked again on its rows); none for all documents. */
  condition?: Condition;
}

/**
 * Whether the listing counts what the caller sees as a deputy (inbox; `all` for a caller who does not
 * read every document: without svcAdminDocsRW and svcAuditR).
 */
export function readsAsDeputy(view: ViewId, principal: Principal): boolean {
  return view === 'inbox' || (view === 'all' && !readsEveryDocument(principal));
}

function conditionsOf({ view, query, principal, standsInFor }: ListingRequest): Condition[] {
  const conditions: Condition[] = [];
  const acting = [principal.subject, ...standsInFor];
  if (view === 'mydocs') {
    conditions.push({ kind: 'column', column: 'author', values: [principal.subject] });
  } else if (readsAsDeputy(view, principal)) {
    const membership = view === 'inbox' ? MEMBERSHIPS.openTasks : MEMBERSHIPS.readers;
    conditions.push({ kind: 'member', membership, values: acting });
  }
  for (const column of ['state', 'step', 'iteration', 'status'] as const) {
    if (query[column] !== undefined) conditions.push({ kind: 'column', column, values: [query[column]] });
  }
  for (const column of ['form', 'author'] as const) {
    const values = query[column];
    if (values?.length) conditions.push({ kind: 'column', column, values: [...new Set(values)] });
  }
  for (const tag of new Set(query.tags ?? [])) {
    conditions.push({ kind: 'member', membership: MEMBERSHIPS.tags, values: [tag] });
  }
  return conditions;
}

const isIndexed = (column: FilterColumn): column is IndexedColumn => column in INDEXED_COLUMNS;

/** The `view_counts` keys of a condition's range; none when it has no range of its own. */
function countKeysOf(condition: Condition): string[] {
  if (condition.kind === 'match') return [];
  if (condition.kind === 'member') return condition.values.map(condition.membership.countKey);
  const { column } = condition;
  if (!isIndexed(column)) return [];
  const key = INDEXED_COLUMNS[column] as (value: unknown) => string;
  return condition.values.map(key);
}

/** The `view_counts` keys whose row counts `planListing` weighs the request by. */
export function countKeysFor(request: ListingRequest): string[] {
  return [ALL_COUNT_KEY, ...conditionsOf(request).flatMap(countKeysOf)];
}

const FACET_COLUMNS = new Set<FilterColumn>(['state', 'step', 'iteration', 'status', 'form']);

/** Conditions whose matches the facet counts sum up: all on facet columns (no author, no membership). */
const onFacetsOnly = (conditions: Condition[]) =>
  conditions.every((c) => c.kind === 'column' && FACET_COLUMNS.has(c.column));

/**
 * Whether `planListing` also needs the facet counts (every `view_counts` key starting with
 * FACET_PREFIX): a listing narrowed by facet columns only, more than one range can answer.
 */
export function needsFacetCounts(request: ListingRequest): boolean {
  const conditions = conditionsOf(request);
  return conditions.length > 0 && onFacetsOnly(conditions);
}

/** The sum of the kept facet counts that match every condition (all on facet columns). */
function facetTotal(conditions: Condition[], rowCounts: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const [key, n] of rowCounts) {
    if (!key.startsWith(FACET_PREFIX)) continue;
    const facet = facetOf(key);
    if (
      conditions.every((c) => c.kind === 'column' && c.values.includes(facet[c.column as keyof typeof facet]))
    )
      total += n;
  }
  return total;
}

/**
 * A condition checked on a row `d` (of `view_docs`, or for a membership or a search, of a membership
 * table): a column compared, a membership probed by its `_doc` index, a search by the row's rowid in
 * `view_docs` (a membership row's through its id).
 */
function conditionSql(c: Condition, params: unknown[], onViewDocs: boolean): string {
  if (c.kind === 'column') return `d.${c.column} ${oneOf(c.values, params)}`;
  if (c.kind === 'match') {
    params.push(c.expression);
    const rowid = onViewDocs ? 'd.rowid' : '(SELECT v.rowid FROM view_docs v WHERE v.id = d.id)';
    return `EXISTS (SELECT 1 FROM ${SEARCH_TABLE} s WHERE s.${SEARCH_TABLE} MATCH ? AND s.rowid = ${rowid})`;
  }
  const { table, column } = c.membership;
  return `EXISTS (SELECT 1 FROM ${table} m WHERE m.id = d.id AND m.${column} ${oneOf(c.values, params)})`;
}

const isTag = (c: Condition): c is Extract<Condition, { kind: 'member' }> =>
  c.kind === 'member' && c.membership === MEMBERSHIPS.tags;

/**
 * The conditions checked on a row `d`, in their order, each a term of a WHERE. Several tags are one
 * term (where the first was): none of the tags (one parameter) lacks its row, each probed by the
 * `_doc` index, stopping at the first missing. Every term is of the same size whatever the number of
 * values, so a page merged from one arm per driving key, each arm repeating the checks, grows with the
 * keys, not with the keys times the other lists' values (issue 29: 100 authors × 100 tags took SQLite
 * seconds to prepare, on the event loop).
 */
function checksSql(checked: Condition[], params: unknown[], onViewDocs = true): string[] {
  const tags = checked.filter(isTag);
  const terms: string[] = [];
  for (const c of checked) {
    if (!isTag(c) || tags.length === 1) terms.push(conditionSql(c, params, onViewDocs));
    else if (c === tags[0]) {
      const { table, column } = MEMBERSHIPS.tags;
      params.push(JSON.stringify(tags.flatMap((t) => t.values)));
      terms.push(
        `NOT EXISTS (SELECT 1 FROM json_each(?) vals WHERE NOT EXISTS (SELECT 1 FROM ${table} m WHERE m.id = d.id AND m.${column} = vals.value))`,
      );
    }
  }
  return terms;
}

/** The keys of a range: `= ?` or `IN (?, ...)`, added to `params` (SQLite seeks each). */
function inList(values: unknown[], params: unknown[]): string {
  params.push(...values);
  return values.length === 1 ? '= ?' : `IN (${values.map(() => '?').join(', ')})`;
}

/** Values a row is checked against: `= ?`, or for several, one parameter (a JSON array) of them all. */
function oneOf(values: unknown[], params: unknown[]): string {
  if (values.length === 1) {
    params.push(values[0]);
    return '= ?';
  }
  params.push(JSON.stringify(values));
  return 'IN (SELECT value FROM json_each(?) vals)';
}

/**
 * A search (`q`): the matches drive the listing (SQLite walks the FTS5 index, every match once), each
 * joined to its `view_docs` row by rowid and checked against the listing's other conditions; the page
 * is the best matches (BM25, lowest first), ties in the listing's order. Its total is always counted
 * (no kept row count knows the matches), with one match of every term (no BM25). Common terms only
 * (their matches fewer than `many`, else planListing walks the range): not ranked, the listing's order,
 * as BM25 would walk every document of each term for its weight.
 *
 * When some terms are common (`commonTerms`, see COMMON_TERM_DOCS) and some are not, the page's BM25
 * is that of the rarer terms only: their matches drive, and each is probed by rowid for the common
 * terms in a second cursor, so no query walks every document of a common term for its weight.
 */
function planSearch(request: ListingRequest, q: string, { commonTerms }: SearchEstimate): ViewPlan {
  // The columns of the joined row first, then the memberships (a probe each).
  const conditions = conditionsOf(request).sort(
    (x, y) => Number(x.kind === 'member') - Number(y.kind === 'member'),
  );
  const terms = searchTerms(q);
  const rare = terms.filter((t) => !commonTerms.has(t));
  const common = terms.filter((t) => commonTerms.has(t));
  const split = rare.length > 0 && common.length > 0;
  const T = SEARCH_TABLE;
  const order = 'd.created DESC, d.id DESC';
  const orderBy = rare.length > 0 ? `bm25(s.${T}, ${SEARCH_WEIGHTS.join(', ')}), ${order}` : order;
  const whereOf = (matches: string[], params: unknown[]) =>
    [...matches, ...checksSql(conditions, params)].join(' AND ');

  const countParams: unknown[] = [matchExpression(terms)];
  const countWhere = whereOf([`s.${T} MATCH ?`], countParams);
  const pageParams: unknown[] = split
    ? [matchExpression(rare), matchExpression(common)]
    : [matchExpression(terms)];
  // CROSS JOIN keeps this order: the ranked matches, their rows, then the probe of the common terms.
  const pageFrom = split
    ? `${T} s CROSS JOIN view_docs d ON d.rowid = s.rowid CROSS JOIN ${T} c ON c.rowid = s.rowid`
    : `${T} s JOIN view_docs d ON d.rowid = s.rowid`;
  const pageWhere = whereOf(split ? [`s.${T} MATCH ?`, `c.${T} MATCH ?`] : [`s.${T} MATCH ?`], pageParams);
  return {
    count: {
      sql:
        conditions.length === 0
          ? `SELECT count(*) FROM ${T} s WHERE ${countWhere}`
          : `SELECT count(*) FROM ${T} s JOIN view_docs d ON d.rowid = s.rowid WHERE ${countWhere}`,
      params: countParams,
    },
    countFromCounts: 0,
    countConditions: conditions.map(countKeysOf).filter((keys) => keys.length > 0),
    page: {
      sql: `SELECT d.id, d.created FROM ${pageFrom} WHERE ${pageWhere} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
      params: [...pageParams, request.query.pageSize, request.query.first],
    },
    matches: null,
  };
}

/**
 * The listing's statements, given the kept row count of each key `countKeysFor` names (a key
 * absent from `rowCounts` has no rows, as in `view_counts`), and for a search, which of its terms
 * are common and whether it has many matches (see planSearch).
 *
 * A search of common terms only with many matches is not driven by its matches (ranking or ordering
 * them all would walk them all): its FTS5 query is one more condition, probed per row of the range
 * (`rowid = ?` with MATCH: a seek in each term's index), and the page stops once full. Its total is
 * counted up to `many` (`countCap`).
 */
export function planListing(
  request: ListingRequest,
  rowCounts: ReadonlyMap<string, number>,
  search: SearchEstimate = NO_ESTIMATE,
): ViewPlan {
  const { q } = request.query;
  const { walk } = search;
  if (q !== undefined && walk === undefined) return planSearch(request, q, search);
  const walked = q !== undefined;
  const conditions = conditionsOf(request);
  const probe: Condition[] = walk === undefined ? [] : [{ kind: 'match', expression: walk }];
  const rowsOf = (keys: string[]) => keys.reduce((sum, key) => sum + (rowCounts.get(key) ?? 0), 0);
  const all = rowsOf([ALL_COUNT_KEY]);

  let driver: Driver = { table: 'view_docs', index: 'view_docs_newest', keys: [], rows: all, repeats: false };
  const rows = new Map<Condition, number>();
  for (const condition of conditions) {
    let candidate: Driver | undefined;
    if (condition.kind === 'member') {
      const { table, column } = condition.membership;
      candidate = {
        table,
        column,
        keys: condition.values,
        rows: rowsOf(countKeysOf(condition)),
        repeats: condition.values.length > 1,
        condition,
      };
    } else if (condition.kind === 'column' && isIndexed(condition.column)) {
      candidate = {
        table: 'view_docs',
        index: `view_docs_${condition.column}`,
        column: condition.column,
        keys: condition.values,
        rows: rowsOf(countKeysOf(condition)),
        repeats: false,
        condition,
      };
    }
    if (candidate) rows.set(condition, candidate.rows);
    if (candidate && candidate.rows < driver.rows) driver = candidate;
  }

  // The other conditions, checked on the driving range's rows: the columns first, the most selective
  // first (estimated from the kept counts; 1/2 where none is kept), then the memberships (a probe each).
  const total = Math.max(1, all);
  const selectivity = (c: Condition) => (c.kind === 'member' ? 2 : (rows.get(c) ?? total / 2) / total);
  // The search's probe last: it seeks in the FTS5 index.
  const rest = [
    ...conditions.filter((c) => c !== driver.condition).sort((x, y) => selectivity(x) - selectivity(y)),
    ...probe,
  ];
  // A membership whose range is not much larger than the driving one is cheaper to count by
  // intersecting the two ranges (both ordered by created, id) than by a probe per row.
  const intersected = (c: Condition): c is Extract<Condition, { kind: 'member' }> =>
    c.kind === 'member' && (rows.get(c) ?? Number.POSITIVE_INFINITY) <= INTERSECT_RATIO * driver.rows;
  // view_docs: the driving key's index; a membership: its primary key (newest first) for pages, its
  // filter index for counts.
  const using = (counting: boolean) =>
    driver.index
      ? ` INDEXED BY ${driver.index}`
      : counting
        ? ` INDEXED BY ${driver.table}_count`
        : ' NOT INDEXED';
  const select = (
    columns: string,
    checked: Condition[],
    counting = true,
    keys: unknown[] = driver.keys,
  ): Statement => {
    const from = `${driver.table} d${using(counting)}`;
    const where: string[] = [];
    const params: unknown[] = [];
    if (driver.column) where.push(`d.${driver.column} ${inList(keys, params)}`);
    where.push(...checksSql(checked, params, driver.table === 'view_docs'));
    return {
      sql: `SELECT ${columns} FROM ${from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`,
      params,
    };
  };

  // Only the driving range, every document once in it: its size is the total (count stays null);
  // facet columns only: the kept facet counts sum to it.
  let count: ViewPlan['count'] = null;
  let matches: ViewPlan['matches'] = null;
  let countFromCounts = driver.rows;
  if (walk !== undefined) {
    // Up to `many` + 1 rows: more is reported as "at least `many`". The search alone: its matches.
    const rows =
      conditions.length === 0
        ? { sql: `SELECT 1 FROM ${SEARCH_TABLE} s WHERE s.${SEARCH_TABLE} MATCH ?`, params: [walk] }
        : select(driver.repeats ? 'DISTINCT d.id' : '1', rest);
    count = { sql: `SELECT count(*) FROM (${rows.sql} LIMIT ?)`, params: [...rows.params, search.many + 1] };
  } else if ((rest.length > 0 || driver.repeats) && onFacetsOnly(conditions)) {
    countFromCounts = facetTotal(conditions, rowCounts);
  } else if (rest.length > 0 || driver.repeats) {
    const ranges = rest.filter(intersected);
    if (ranges.length === 0) {
      count = select(`count(${driver.repeats ? 'DISTINCT d.id' : '*'})`, rest);
      const rows = select(`${driver.repeats ? 'DISTINCT ' : ''}d.id, d.created`, rest);
      matches = { sql: `${rows.sql} ORDER BY d.created DESC, d.id DESC LIMIT ?`, params: rows.params };
    } else {
      const own = select(
        'd.created, d.id',
        rest.filter((c) => !intersected(c)),
        false, // ordered like the ranges it is merged with
      );
      const params = [...own.params];
      const others = ranges.map(({ membership: { table, column }, values }) => {
        params.push(...values);
        return `SELECT created, id FROM ${table} WHERE ${column} IN (${values.map(() => '?').join(', ')})`;
      });
      const both = [own.sql, ...others].join(' INTERSECT ');
      count = { sql: `SELECT count(*) FROM (${both})`, params };
      matches = { sql: `${both} ORDER BY 1 DESC, 2 DESC LIMIT ?`, params };
    }
  }
  // Several keys: each key's range is newest first already, so the page merges them (UNION: each
  // document once) and stops at the page, rather than sorting every row of every range.
  let page: Statement;
  if (driver.keys.length > 1) {
    const arms = driver.keys.map((key) => select('d.id, d.created', rest, false, [key]));
    page = {
      sql: `${arms.map((arm) => arm.sql).join(driver.repeats ? ' UNION ' : ' UNION ALL ')} ORDER BY 2 DESC, 1 DESC LIMIT ? OFFSET ?`,
      params: arms.flatMap((arm) => arm.params),
    };
  } else {
    const one = select('d.id, d.created', rest, false);
    page = { sql: `${one.sql} ORDER BY d.created DESC, d.id DESC LIMIT ? OFFSET ?`, params: one.params };
  }
  return {
    count,
    ...(walked ? { countCap: search.many } : {}),
    countFromCounts,
    countConditions: conditions.map(countKeysOf).filter((keys) => keys.length > 0),
    page: { sql: page.sql, params: [...page.params, request.query.pageSize, request.query.first] },
    matches,
  };
}
