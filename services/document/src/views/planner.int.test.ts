/**
 * The listing planner, case by case (view × filters × caller): the statements it writes, and what
 * SQLite makes of them (`EXPLAIN QUERY PLAN` on the real schema, in memory): each listing is read from
 * the range of its smallest key through the intended index, newest first, and never by a full scan of
 * a table, except the walk of all documents when nothing narrows them. Whether the statements answer
 * correctly is read-model.int.test.ts's business (against a brute-force filter).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ViewId, ViewQuery } from '@docflow/contracts';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import type { Principal } from '@docflow/kit/http';
import { countKeysFor, type ListingRequest, planListing, type Statement } from './planner';
import { migrateViewsSchema } from './schema';

const ADMIN: Principal = { account: 'usr-admin', subject: 'usr-admin', roles: ['svcAdminDocsRW'] };
const READER: Principal = { account: 'usr-b', subject: 'usr-b', roles: [] };
/** usr-d stands in for usr-a and usr-b. */
const DEPUTY: Principal = { account: 'usr-d', subject: 'usr-d', roles: [] };
const STANDS_IN_FOR = ['usr-a', 'usr-b'];

/** The kept row counts (`view_counts`) every case is planned with: 10,000 documents, all by the admin. */
const ROW_COUNTS = new Map(
  Object.entries({
    n: 10_000,
    'a:usr-admin': 10_000,
    'a:usr-b': 40,
    'f:memo': 6_000,
    'f:invoice': 3_000,
    's:1': 3_000,
    's:4': 20,
    't:t3': 1_000,
    't:t5': 100,
    't:t9': 30,
    'i:usr-a': 5,
    'i:usr-b': 8,
    'i:usr-d': 2,
    'r:usr-a': 50,
    'r:usr-b': 100,
    'r:usr-d': 10,
    // Facets: state|step|iteration|status|form.
    'c:0|0|0|1|memo': 4_500,
    'c:1|1|1|2|memo': 1_500,
    'c:0|0|0|1|invoice': 1_500,
    'c:1|1|1|2|invoice': 1_500,
    'c:0|0|0|1|contract': 1_000,
  }),
);

const ORDER = ' ORDER BY d.created DESC, d.id DESC LIMIT ? OFFSET ?';
const PAGE = { first: 0, pageSize: 20 };

interface Case {
  name: string;
  view: ViewId;
  caller: Principal;
  filters?: Omit<ViewQuery, 'first' | 'pageSize'>;
  /** The count statement, or the kept row count that stands for it. */
  count: { sql: string; params: unknown[]; plan: string[] } | { fromCounts: number };
  /** The page statement without its ORDER BY and LIMIT, and its parameters without pageSize and first. */
  page: { sql: string; params: unknown[]; plan: string[] };
}

const CASES: Case[] = [
  {
    name: 'all as admin, no filter: every document newest first, the total kept',
    view: 'all',
    caller: ADMIN,
    count: { fromCounts: 10_000 },
    page: {
      sql: 'SELECT d.id, d.created FROM view_docs d INDEXED BY view_docs_newest',
      params: [],
      plan: ['SCAN d USING COVERING INDEX view_docs_newest'],
    },
  },
  {
    name: 'all as admin, a status (no range of its own): all documents newest first, filtered; the total from the facets',
    view: 'all',
    caller: ADMIN,
    filters: { status: 2 },
    count: { fromCounts: 3_000 },
    page: {
      sql: 'SELECT d.id, d.created FROM view_docs d INDEXED BY view_docs_newest WHERE d.status = ?',
      params: [2],
      plan: ['SCAN d USING COVERING INDEX view_docs_newest'],
    },
  },
  {
    name: 'all as admin, a form and a status: the form range, status on its rows; the total from the facets',
    view: 'all',
    caller: ADMIN,
    filters: { form: ['memo'], status: 2 },
    count: { fromCounts: 1_500 },
    page: {
      sql: 'SELECT d.id, d.created FROM view_docs d INDEXED BY view_docs_form WHERE d.form = ? AND d.status = ?',
      params: ['memo', 2],
      plan: ['SEARCH d USING COVERING INDEX view_docs_form (form=?)'],
    },
  },
  {
    name: 'all as admin, a state: its range of the state index, the total kept',
    view: 'all',
    caller: ADMIN,
    filters: { state: 4 },
    count: { fromCounts: 20 },
    page: {
      sql: 'SELECT d.id, d.created FROM view_docs d INDEXED BY view_docs_state WHERE d.state = ?',
      params: [4],
      plan: ['SEARCH d USING COVERING INDEX view_docs_state (state=?)'],
    },
  },
  {
    name: 'all as admin, two forms: both ranges of the form index, merged newest first',
    view: 'all',
    caller: ADMIN,
    filters: { form: ['memo', 'invoice'] },
    count: { fromCounts: 9_000 },
    page: {
      sql: 'SELECT d.id, d.created FROM view_docs d INDEXED BY view_docs_form WHERE d.form = ? UNION ALL SELECT d.id, d.created FROM view_docs d INDEXED BY view_docs_form WHERE d.form = ? ORDER BY 2 DESC, 1 DESC LIMIT ? OFFSET ?',
      params: ['memo', 'invoice'],
      plan: [
        'MERGE (UNION ALL)',
        'LEFT',
        'SEARCH d USING COVERING INDEX view_docs_form (form=?)',
        'RIGHT',
        'SEARCH d USING COVERING INDEX view_docs_form (form=?)',
      ],
    },
  },
  {
    name: 'mydocs as admin, a form and a tag (the bench headline): the tag range, form then author on its rows',
    view: 'mydocs',
    caller: ADMIN,
    filters: { form: ['memo'], tags: ['t3'] },
    count: {
      sql: 'SELECT count(*) FROM view_doc_tags d INDEXED BY view_doc_tags_count WHERE d.tag = ? AND d.form = ? AND d.author = ?',
      params: ['t3', 'memo', 'usr-admin'],
      plan: ['SEARCH d USING COVERING INDEX view_doc_tags_count (tag=? AND form=? AND author=?)'],
    },
    page: {
      sql: 'SELECT d.id, d.created FROM view_doc_tags d NOT INDEXED WHERE d.tag = ? AND d.form = ? AND d.author = ?',
      params: ['t3', 'memo', 'usr-admin'],
      plan: ['SEARCH d USING PRIMARY KEY (tag=?)'],
    },
  },
  {
    name: 'mydocs as a reader, a much larger tag: the author range, the tag probed per row',
    view: 'mydocs',
    caller: READER,
    filters: { tags: ['t3'] },
    count: {
      sql: 'SELECT count(*) FROM view_docs d INDEXED BY view_docs_author WHERE d.author = ? AND EXISTS (SELECT 1 FROM view_doc_tags m WHERE m.id = d.id AND m.tag = ?)',
      params: ['usr-b', 't3'],
      plan: [
        'SEARCH d USING COVERING INDEX view_docs_author (author=?)',
        'SEARCH m EXISTS USING COVERING INDEX view_doc_tags_doc (id=? AND tag=?)',
      ],
    },
    page: {
      sql: 'SELECT d.id, d.created FROM view_docs d INDEXED BY view_docs_author WHERE d.author = ? AND EXISTS (SELECT 1 FROM view_doc_tags m WHERE m.id = d.id AND m.tag = ?)',
      params: ['usr-b', 't3'],
      plan: [
        'SEARCH d USING COVERING INDEX view_docs_author (author=?)',
        'CORRELATED SCALAR SUBQUERY 1',
        'SEARCH m USING COVERING INDEX view_doc_tags_doc (id=? AND tag=?)',
      ],
    },
  },
  {
    name: 'mydocs as a reader, a tag of similar size: counted by merging the author and tag ranges',
    view: 'mydocs',
    caller: READER,
    filters: { tags: ['t5'] },
    count: {
      sql: 'SELECT count(*) FROM (SELECT d.created, d.id FROM view_docs d INDEXED BY view_docs_author WHERE d.author = ? INTERSECT SELECT created, id FROM view_doc_tags WHERE tag IN (?))',
      params: ['usr-b', 't5'],
      plan: [
        'CO-ROUTINE (subquery-2)',
        'MERGE (INTERSECT)',
        'LEFT',
        'SEARCH d USING COVERING INDEX view_docs_author (author=?)',
        'RIGHT',
        'SEARCH view_doc_tags USING PRIMARY KEY (tag=?)',
        'SCAN (subquery-2)',
      ],
    },
    page: {
      sql: 'SELECT d.id, d.created FROM view_docs d INDEXED BY view_docs_author WHERE d.author = ? AND EXISTS (SELECT 1 FROM view_doc_tags m WHERE m.id = d.id AND m.tag = ?)',
      params: ['usr-b', 't5'],
      plan: [
        'SEARCH d USING COVERING INDEX view_docs_author (author=?)',
        'CORRELATED SCALAR SUBQUERY 1',
        'SEARCH m USING COVERING INDEX view_doc_tags_doc (id=? AND tag=?)',
      ],
    },
  },
  {
    name: 'mydocs as a deputy: only the caller as author (standing in adds nothing), the total kept',
    view: 'mydocs',
    caller: DEPUTY,
    count: { fromCounts: 0 },
    page: {
      sql: 'SELECT d.id, d.created FROM view_docs d INDEXED BY view_docs_author WHERE d.author = ?',
      params: ['usr-d'],
      plan: ['SEARCH d USING COVERING INDEX view_docs_author (author=?)'],
    },
  },
  {
    name: 'inbox as a reader: the range of their open tasks, the total kept',
    view: 'inbox',
    caller: READER,
    count: { fromCounts: 8 },
    page: {
      sql: 'SELECT d.id, d.created FROM view_open_tasks d NOT INDEXED WHERE d.user_id = ?',
      params: ['usr-b'],
      plan: ['SEARCH d USING PRIMARY KEY (user_id=?)'],
    },
  },
  {
    name: 'inbox as a reader, a form and a status: counted in the open tasks’ filter index',
    view: 'inbox',
    caller: READER,
    filters: { form: ['memo'], status: 2 },
    count: {
      sql: 'SELECT count(*) FROM view_open_tasks d INDEXED BY view_open_tasks_count WHERE d.user_id = ? AND d.status = ? AND d.form = ?',
      params: ['usr-b', 2, 'memo'],
      plan: ['SEARCH d USING COVERING INDEX view_open_tasks_count (user_id=? AND form=?)'],
    },
    page: {
      sql: 'SELECT d.id, d.created FROM view_open_tasks d NOT INDEXED WHERE d.user_id = ? AND d.status = ? AND d.form = ?',
      params: ['usr-b', 2, 'memo'],
      plan: ['SEARCH d USING PRIMARY KEY (user_id=?)'],
    },
  },
  {
    name: 'inbox as a deputy: the ranges of their own and their absentees’ tasks merged newest first, each document once',
    view: 'inbox',
    caller: DEPUTY,
    count: {
      sql: 'SELECT count(DISTINCT d.id) FROM view_open_tasks d INDEXED BY view_open_tasks_count WHERE d.user_id IN (?, ?, ?)',
      params: ['usr-d', 'usr-a', 'usr-b'],
      plan: [
        'USE TEMP B-TREE FOR count(DISTINCT)',
        'SEARCH d USING COVERING INDEX view_open_tasks_count (user_id=?)',
      ],
    },
    page: {
      sql: 'SELECT d.id, d.created FROM view_open_tasks d NOT INDEXED WHERE d.user_id = ? UNION SELECT d.id, d.created FROM view_open_tasks d NOT INDEXED WHERE d.user_id = ? UNION SELECT d.id, d.created FROM view_open_tasks d NOT INDEXED WHERE d.user_id = ? ORDER BY 2 DESC, 1 DESC LIMIT ? OFFSET ?',
      params: ['usr-d', 'usr-a', 'usr-b'],
      plan: [
        'MERGE (UNION)',
        'LEFT',
        'MERGE (UNION)',
        'LEFT',
        'SEARCH d USING PRIMARY KEY (user_id=?)',
        'RIGHT',
        'SEARCH d USING PRIMARY KEY (user_id=?)',
        'RIGHT',
        'SEARCH d USING PRIMARY KEY (user_id=?)',
      ],
    },
  },
  {
    name: 'all as a reader, a rare state: the state range, readership probed per row',
    view: 'all',
    caller: READER,
    filters: { state: 4 },
    count: {
      sql: 'SELECT count(*) FROM view_docs d INDEXED BY view_docs_state WHERE d.state = ? AND EXISTS (SELECT 1 FROM view_doc_readers m WHERE m.id = d.id AND m.user_id = ?)',
      params: [4, 'usr-b'],
      plan: [
        'SEARCH d USING COVERING INDEX view_docs_state (state=?)',
        'SEARCH m EXISTS USING COVERING INDEX view_doc_readers_doc (id=? AND user_id=?)',
      ],
    },
    page: {
      sql: 'SELECT d.id, d.created FROM view_docs d INDEXED BY view_docs_state WHERE d.state = ? AND EXISTS (SELECT 1 FROM view_doc_readers m WHERE m.id = d.id AND m.user_id = ?)',
      params: [4, 'usr-b'],
      plan: [
        'SEARCH d USING COVERING INDEX view_docs_state (state=?)',
        'CORRELATED SCALAR SUBQUERY 1',
        'SEARCH m USING COVERING INDEX view_doc_readers_doc (id=? AND user_id=?)',
      ],
    },
  },
  {
    name: 'mydocs as a reader, three tags: the rarest drives; counted by merging the ranges of those near its size, the page probing the others in one check',
    view: 'mydocs',
    caller: READER,
    filters: { tags: ['t3', 't5', 't9'] },
    count: {
      sql: 'SELECT count(*) FROM (SELECT d.created, d.id FROM view_doc_tags d NOT INDEXED WHERE d.tag = ? AND d.author = ? AND EXISTS (SELECT 1 FROM view_doc_tags m WHERE m.id = d.id AND m.tag = ?) INTERSECT SELECT created, id FROM view_doc_tags WHERE tag IN (?))',
      params: ['t9', 'usr-b', 't3', 't5'],
      plan: [
        'CO-ROUTINE (subquery-3)',
        'MERGE (INTERSECT)',
        'LEFT',
        'SEARCH d USING PRIMARY KEY (tag=?)',
        'SEARCH m EXISTS USING COVERING INDEX view_doc_tags_doc (id=? AND tag=?)',
        'RIGHT',
        'SEARCH view_doc_tags USING PRIMARY KEY (tag=?)',
        'SCAN (subquery-3)',
      ],
    },
    page: {
      // The tags as one parameter: no tag of it lacks the row's `_doc` entry (stops at the first missing).
      sql: 'SELECT d.id, d.created FROM view_doc_tags d NOT INDEXED WHERE d.tag = ? AND d.author = ? AND NOT EXISTS (SELECT 1 FROM json_each(?) vals WHERE NOT EXISTS (SELECT 1 FROM view_doc_tags m WHERE m.id = d.id AND m.tag = vals.value))',
      params: ['t9', 'usr-b', '["t3","t5"]'],
      plan: [
        'SEARCH d USING PRIMARY KEY (tag=?)',
        'CORRELATED SCALAR SUBQUERY 2',
        'SCAN vals VIRTUAL TABLE INDEX 1:',
        'CORRELATED SCALAR SUBQUERY 1',
        'SEARCH m USING COVERING INDEX view_doc_tags_doc (id=? AND tag=?)',
      ],
    },
  },
  {
    name: 'inbox as a deputy, two tags: the three task ranges merged, each arm checking the tags in one term of the same size',
    view: 'inbox',
    caller: DEPUTY,
    filters: { tags: ['t3', 't5'] },
    count: {
      sql: 'SELECT count(DISTINCT d.id) FROM view_open_tasks d INDEXED BY view_open_tasks_count WHERE d.user_id IN (?, ?, ?) AND NOT EXISTS (SELECT 1 FROM json_each(?) vals WHERE NOT EXISTS (SELECT 1 FROM view_doc_tags m WHERE m.id = d.id AND m.tag = vals.value))',
      params: ['usr-d', 'usr-a', 'usr-b', '["t3","t5"]'],
      plan: [
        'USE TEMP B-TREE FOR count(DISTINCT)',
        'SEARCH d USING COVERING INDEX view_open_tasks_count (user_id=?)',
        'CORRELATED SCALAR SUBQUERY 2',
        'SCAN vals VIRTUAL TABLE INDEX 1:',
        'CORRELATED SCALAR SUBQUERY 1',
        'SEARCH m USING COVERING INDEX view_doc_tags_doc (id=? AND tag=?)',
      ],
    },
    page: {
      sql: ['usr-d', 'usr-a', 'usr-b']
        .map(
          () =>
            'SELECT d.id, d.created FROM view_open_tasks d NOT INDEXED WHERE d.user_id = ? AND NOT EXISTS (SELECT 1 FROM json_each(?) vals WHERE NOT EXISTS (SELECT 1 FROM view_doc_tags m WHERE m.id = d.id AND m.tag = vals.value))',
        )
        .join(' UNION ')
        .concat(' ORDER BY 2 DESC, 1 DESC LIMIT ? OFFSET ?'),
      params: ['usr-d', '["t3","t5"]', 'usr-a', '["t3","t5"]', 'usr-b', '["t3","t5"]'],
      plan: [
        'MERGE (UNION)',
        'LEFT',
        'MERGE (UNION)',
        'LEFT',
        ...[2, 5, 8].flatMap((n) => [
          ...(n === 2 ? [] : ['RIGHT']),
          'SEARCH d USING PRIMARY KEY (user_id=?)',
          `CORRELATED SCALAR SUBQUERY ${n}`,
          'SCAN vals VIRTUAL TABLE INDEX 1:',
          `CORRELATED SCALAR SUBQUERY ${n - 1}`,
          'SEARCH m USING COVERING INDEX view_doc_tags_doc (id=? AND tag=?)',
        ]),
      ],
    },
  },
  {
    name: 'all as a deputy, a rare tag: the tag range, readership of any of the three probed per row',
    view: 'all',
    caller: DEPUTY,
    filters: { tags: ['t9'] },
    count: {
      sql: 'SELECT count(*) FROM view_doc_tags d INDEXED BY view_doc_tags_count WHERE d.tag = ? AND EXISTS (SELECT 1 FROM view_doc_readers m WHERE m.id = d.id AND m.user_id IN (SELECT value FROM json_each(?) vals))',
      params: ['t9', '["usr-d","usr-a","usr-b"]'],
      plan: [
        'SEARCH d USING COVERING INDEX view_doc_tags_count (tag=?)',
        'SEARCH m EXISTS USING COVERING INDEX view_doc_readers_doc (id=? AND user_id=?)',
        'LIST SUBQUERY 1',
        'SCAN vals VIRTUAL TABLE INDEX 1:',
      ],
    },
    page: {
      sql: 'SELECT d.id, d.created FROM view_doc_tags d NOT INDEXED WHERE d.tag = ? AND EXISTS (SELECT 1 FROM view_doc_readers m WHERE m.id = d.id AND m.user_id IN (SELECT value FROM json_each(?) vals))',
      params: ['t9', '["usr-d","usr-a","usr-b"]'],
      plan: [
        'SEARCH d USING PRIMARY KEY (tag=?)',
        'CORRELATED SCALAR SUBQUERY 2',
        'SEARCH m USING COVERING INDEX view_doc_readers_doc (id=? AND user_id=?)',
        'LIST SUBQUERY 1',
        'SCAN vals VIRTUAL TABLE INDEX 1:',
      ],
    },
  },
];

function requestOf(c: Case): ListingRequest {
  return {
    view: c.view,
    query: { ...PAGE, ...c.filters },
    principal: c.caller,
    standsInFor: c.caller === DEPUTY ? STANDS_IN_FOR : [],
  };
}

describe('listing planner', () => {
  const db = openLocalDb(':memory:');
  migrateViewsSchema(db);
  const explain = (statement: Statement) =>
    db
      .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${statement.sql}`)
      .all(...statement.params)
      .map((row) => row.detail);

  for (const c of CASES) {
    it(c.name, () => {
      const plan = planListing(requestOf(c), ROW_COUNTS);
      // A page merged from several ranges has its own ORDER BY (by column number).
      assert.equal(plan.page.sql, c.page.sql.includes(' ORDER BY ') ? c.page.sql : c.page.sql + ORDER);
      assert.deepEqual(plan.page.params, [...c.page.params, PAGE.pageSize, PAGE.first]);
      assert.deepEqual(explain(plan.page), c.page.plan, 'page plan');
      if ('fromCounts' in c.count) {
        assert.equal(plan.count, null);
        assert.equal(plan.countFromCounts, c.count.fromCounts);
      } else {
        assert.ok(plan.count, 'a count statement');
        assert.equal(plan.count.sql, c.count.sql);
        assert.deepEqual(plan.count.params, c.count.params);
        assert.deepEqual(explain(plan.count), c.count.plan, 'count plan');
      }
    });
  }

  it('reads no table whole unless nothing narrows the listing', () => {
    for (const c of CASES) {
      const plan = planListing(requestOf(c), ROW_COUNTS);
      // A condition with a range of its own (beyond all documents).
      const narrowed = countKeysFor(requestOf(c)).length > 1;
      const matches = plan.matches ? [{ ...plan.matches, params: [...plan.matches.params, 2_000] }] : [];
      for (const statement of [plan.page, ...(plan.count ? [plan.count] : []), ...matches]) {
        for (const step of explain(statement)) {
          // Not a table: a subquery's rows, or a list of values bound as one parameter (json_each).
          const scan = /^SCAN (?!\(subquery-|vals VIRTUAL TABLE )/.test(step);
          assert.ok(
            !scan || (!narrowed && step === 'SCAN d USING COVERING INDEX view_docs_newest'),
            `${c.name}: ${step}`,
          );
        }
      }
    }
  });

  it('reads every match of a counted listing as its count reads them (its range, or its merge of ranges), sorted', () => {
    const byName = (prefix: string) => CASES.find((c) => c.name.startsWith(prefix))!;
    const cases: [string, string, string[]][] = [
      // Counted by merging the author and tag ranges: the same merge, newest first (no sort).
      [
        'mydocs as a reader, a tag of similar size',
        'SELECT d.created, d.id FROM view_docs d INDEXED BY view_docs_author WHERE d.author = ? INTERSECT SELECT created, id FROM view_doc_tags WHERE tag IN (?) ORDER BY 1 DESC, 2 DESC LIMIT ?',
        [
          'MERGE (INTERSECT)',
          'LEFT',
          'SEARCH d USING COVERING INDEX view_docs_author (author=?)',
          'RIGHT',
          'SEARCH view_doc_tags USING PRIMARY KEY (tag=?)',
        ],
      ],
      // Counted in a filter index: its range, sorted.
      [
        'mydocs as admin, a form and a tag',
        'SELECT d.id, d.created FROM view_doc_tags d INDEXED BY view_doc_tags_count WHERE d.tag = ? AND d.form = ? AND d.author = ? ORDER BY d.created DESC, d.id DESC LIMIT ?',
        [
          'SEARCH d USING COVERING INDEX view_doc_tags_count (tag=? AND form=? AND author=?)',
          'USE TEMP B-TREE FOR ORDER BY',
        ],
      ],
      // A deputy's ranges: each document once.
      [
        'inbox as a deputy',
        'SELECT DISTINCT d.id, d.created FROM view_open_tasks d INDEXED BY view_open_tasks_count WHERE d.user_id IN (?, ?, ?) ORDER BY d.created DESC, d.id DESC LIMIT ?',
        [
          'SEARCH d USING COVERING INDEX view_open_tasks_count (user_id=?)',
          'USE TEMP B-TREE FOR DISTINCT',
          'USE TEMP B-TREE FOR ORDER BY',
        ],
      ],
    ];
    for (const [name, sql, plan] of cases) {
      const { count, matches } = planListing(requestOf(byName(name)), ROW_COUNTS);
      assert.ok(count && matches, name);
      assert.equal(matches.sql, sql);
      assert.deepEqual(matches.params, count.params);
      assert.deepEqual(explain({ sql, params: [...matches.params, 2_000] }), plan, name);
    }
    // Nothing to read when the total is a kept count.
    assert.equal(planListing(requestOf(byName('all as admin, a state')), ROW_COUNTS).matches, null);
  });

  it('a search: the FTS5 matches drive, each joined to its row by rowid, the columns then the memberships checked on it', () => {
    const search = (request: Omit<ListingRequest, 'query'>, query: Omit<ViewQuery, 'first' | 'pageSize'>) =>
      planListing({ ...request, query: { ...PAGE, ...query } }, ROW_COUNTS);
    const FROM = 'FROM view_search s JOIN view_docs d ON d.rowid = s.rowid WHERE s.view_search MATCH ?';
    const RANKED = ' ORDER BY bm25(s.view_search, 2, 1), d.created DESC, d.id DESC LIMIT ? OFFSET ?';
    const MATCHES = 'SCAN s VIRTUAL TABLE INDEX 0:M2';
    const JOINED = 'SEARCH d USING INTEGER PRIMARY KEY (rowid=?)';

    // All documents: the count reads the index alone; words quoted, the last one a prefix.
    const all = search({ view: 'all', principal: ADMIN, standsInFor: [] }, { q: 'Budget "2027" NEAR(x' });
    assert.deepEqual(all.count, {
      sql: 'SELECT count(*) FROM view_search s WHERE s.view_search MATCH ?',
      params: ['"Budget" "2027" "NEAR" "x"*'],
    });
    assert.deepEqual(explain(all.count!), [MATCHES]);
    assert.equal(all.page.sql, `SELECT d.id, d.created ${FROM}${RANKED}`);
    assert.deepEqual(explain(all.page), [MATCHES, JOINED, 'USE TEMP B-TREE FOR ORDER BY']);
    // Ranked: no list of matches in the listing's order.
    assert.equal(all.matches, null);

    // A deputy's all, a state and a tag: the state on the row, then the readers and the tag probed.
    const deputy = search(
      { view: 'all', principal: DEPUTY, standsInFor: STANDS_IN_FOR },
      { q: 'budget', tags: ['t3'], state: 1 },
    );
    const where = `${FROM} AND d.state = ? AND EXISTS (SELECT 1 FROM view_doc_readers m WHERE m.id = d.id AND m.user_id IN (SELECT value FROM json_each(?) vals)) AND EXISTS (SELECT 1 FROM view_doc_tags m WHERE m.id = d.id AND m.tag = ?)`;
    const params = ['"budget"*', 1, '["usr-d","usr-a","usr-b"]', 't3'];
    assert.deepEqual(deputy.count, { sql: `SELECT count(*) ${where}`, params });
    assert.deepEqual(explain(deputy.count!), [
      MATCHES,
      JOINED,
      'SEARCH m EXISTS USING COVERING INDEX view_doc_readers_doc (id=? AND user_id=?)',
      'LIST SUBQUERY 1',
      'SCAN vals VIRTUAL TABLE INDEX 1:',
      'SEARCH m EXISTS USING COVERING INDEX view_doc_tags_doc (id=? AND tag=?)',
    ]);
    assert.deepEqual(deputy.page, {
      sql: `SELECT d.id, d.created ${where}${RANKED}`,
      params: [...params, 20, 0],
    });
    assert.deepEqual(explain(deputy.page), [
      MATCHES,
      JOINED,
      'CORRELATED SCALAR SUBQUERY 2',
      'SEARCH m USING COVERING INDEX view_doc_readers_doc (id=? AND user_id=?)',
      'LIST SUBQUERY 1',
      'SCAN vals VIRTUAL TABLE INDEX 1:',
      'CORRELATED SCALAR SUBQUERY 3',
      'SEARCH m USING COVERING INDEX view_doc_tags_doc (id=? AND tag=?)',
      'USE TEMP B-TREE FOR ORDER BY',
    ]);
    // A common term and a rarer one: the page ranks by the rarer one, probing the common one per match.
    const mixed = planListing(
      { view: 'all', query: { ...PAGE, q: 'document 4242' }, principal: READER, standsInFor: [] },
      ROW_COUNTS,
      { commonTerms: new Set(['"document"']), many: 10_000 },
    );
    assert.deepEqual(mixed.count?.params, ['"document" "4242"*', 'usr-b']);
    assert.equal(
      mixed.page.sql,
      'SELECT d.id, d.created FROM view_search s CROSS JOIN view_docs d ON d.rowid = s.rowid CROSS JOIN view_search c ON c.rowid = s.rowid WHERE s.view_search MATCH ? AND c.view_search MATCH ? AND EXISTS (SELECT 1 FROM view_doc_readers m WHERE m.id = d.id AND m.user_id = ?)' +
        RANKED,
    );
    assert.deepEqual(mixed.page.params, ['"4242"*', '"document"', 'usr-b', 20, 0]);
    assert.deepEqual(explain(mixed.page), [
      MATCHES,
      JOINED,
      'CORRELATED SCALAR SUBQUERY 1',
      'SEARCH m USING COVERING INDEX view_doc_readers_doc (id=? AND user_id=?)',
      'SCAN c VIRTUAL TABLE INDEX 0:=M2',
      'USE TEMP B-TREE FOR ORDER BY',
    ]);

    // The total is kept until a write touches a key of each keyed condition, as without q.
    assert.deepEqual(deputy.countConditions, [['s:1'], ['r:usr-d', 'r:usr-a', 'r:usr-b'], ['t:t3']]);
  });

  it('a search of common terms only: few matches listed in the view order; many walked by the range, probed, counted up to a bound', () => {
    // Many: the reader spells the last term's prefix out as the words it stands for.
    const common = (many: boolean) => ({
      commonTerms: new Set(['"document"', '"bench"*']),
      ...(many ? { walk: '"document" AND ("bench" OR "benches")' } : {}),
      many: 10_000,
    });
    const request = (principal: Principal, query: Omit<ViewQuery, 'first' | 'pageSize'>): ListingRequest => ({
      view: 'all',
      query: { ...PAGE, ...query },
      principal,
      standsInFor: [],
    });
    // Few matches: they drive, no BM25 (it would walk each common term for its weight), newest first.
    const few = planListing(request(ADMIN, { q: 'document bench' }), ROW_COUNTS, common(false));
    assert.equal(
      few.page.sql,
      'SELECT d.id, d.created FROM view_search s JOIN view_docs d ON d.rowid = s.rowid WHERE s.view_search MATCH ? ORDER BY d.created DESC, d.id DESC LIMIT ? OFFSET ?',
    );
    assert.equal(few.countCap, undefined);

    // Many: all documents newest first, each probed by rowid in the FTS5 index; stops at the page.
    const PROBE = 'EXISTS (SELECT 1 FROM view_search s WHERE s.view_search MATCH ? AND s.rowid = d.rowid)';
    const PROBED = ['CORRELATED SCALAR SUBQUERY 1', 'SCAN s VIRTUAL TABLE INDEX 0:=M2'];
    const admin = planListing(request(ADMIN, { q: 'document bench' }), ROW_COUNTS, common(true));
    assert.deepEqual(admin.page, {
      sql: `SELECT d.id, d.created FROM view_docs d INDEXED BY view_docs_newest WHERE ${PROBE} ORDER BY d.created DESC, d.id DESC LIMIT ? OFFSET ?`,
      params: ['"document" AND ("bench" OR "benches")', 20, 0],
    });
    assert.deepEqual(explain(admin.page), ['SCAN d USING COVERING INDEX view_docs_newest', ...PROBED]);
    // The search alone: its matches counted (up to the bound), no row read.
    assert.deepEqual(admin.count, {
      sql: 'SELECT count(*) FROM (SELECT 1 FROM view_search s WHERE s.view_search MATCH ? LIMIT ?)',
      params: ['"document" AND ("bench" OR "benches")', 10_001],
    });
    assert.deepEqual(explain(admin.count!), [
      'CO-ROUTINE (subquery-1)',
      'SCAN s VIRTUAL TABLE INDEX 0:M2',
      'SCAN (subquery-1)',
    ]);
    assert.equal(admin.countCap, 10_000);
    assert.equal(admin.matches, null);

    // A reader: their documents' range (newest first), the state on the row, then the probe (the
    // rowid found by the row's id).
    const reader = planListing(request(READER, { q: 'document bench', state: 1 }), ROW_COUNTS, common(true));
    assert.deepEqual(reader.page.params, ['usr-b', 1, '"document" AND ("bench" OR "benches")', 20, 0]);
    // Counted on the same rows, up to the bound.
    assert.equal(
      reader.count?.sql,
      `SELECT count(*) FROM (SELECT 1 FROM view_doc_readers d INDEXED BY view_doc_readers_count WHERE d.user_id = ? AND d.state = ? AND ${PROBE.replace('d.rowid', '(SELECT v.rowid FROM view_docs v WHERE v.id = d.id)')} LIMIT ?)`,
    );
    assert.deepEqual(explain(reader.page), [
      'SEARCH d USING PRIMARY KEY (user_id=?)',
      'CORRELATED SCALAR SUBQUERY 2',
      'SCAN s VIRTUAL TABLE INDEX 0:=M2',
      'CORRELATED SCALAR SUBQUERY 1',
      'SEARCH v USING COVERING INDEX sqlite_autoindex_view_docs_1 (id=?)',
    ]);
    assert.deepEqual(reader.countConditions, [['r:usr-b'], ['s:1']]);
  });

  it('names the kept counts it weighs: all documents, then each key of each condition with a range', () => {
    const cases: [ListingRequest, string[]][] = [
      [{ view: 'all', query: { ...PAGE, status: 2, step: 1 }, principal: ADMIN, standsInFor: [] }, ['n']],
      [
        {
          view: 'mydocs',
          query: { ...PAGE, form: ['memo', 'memo'], tags: ['t3'] },
          principal: READER,
          standsInFor: [],
        },
        ['n', 'a:usr-b', 'f:memo', 't:t3'],
      ],
      [
        { view: 'all', query: { ...PAGE, state: 1 }, principal: DEPUTY, standsInFor: STANDS_IN_FOR },
        ['n', 'r:usr-d', 'r:usr-a', 'r:usr-b', 's:1'],
      ],
      [
        { view: 'inbox', query: PAGE, principal: DEPUTY, standsInFor: STANDS_IN_FOR },
        ['n', 'i:usr-d', 'i:usr-a', 'i:usr-b'],
      ],
    ];
    for (const [request, expected] of cases) assert.deepEqual(countKeysFor(request), expected);
  });

  it('names the keys of each condition a kept total depends on (the columns without a count: none)', () => {
    const cases: [ListingRequest, string[][]][] = [
      [{ view: 'all', query: { ...PAGE, status: 2, step: 1 }, principal: ADMIN, standsInFor: [] }, []],
      [
        { view: 'all', query: { ...PAGE, tags: ['t0', 't1'], step: 1 }, principal: ADMIN, standsInFor: [] },
        [['t:t0'], ['t:t1']],
      ],
      [
        {
          view: 'all',
          query: { ...PAGE, form: ['memo', 'invoice'], tags: ['t3'] },
          principal: DEPUTY,
          standsInFor: STANDS_IN_FOR,
        },
        [['r:usr-d', 'r:usr-a', 'r:usr-b'], ['f:memo', 'f:invoice'], ['t:t3']],
      ],
    ];
    for (const [request, expected] of cases)
      assert.deepEqual(planListing(request, ROW_COUNTS).countConditions, expected);
  });
});
