/**
 * The bound on list query parameters (contracts' MAX_LIST_VALUES, issue 29 finding 7) keeps every
 * listing's statements within what SQLite accepts, in every view, for every caller, whichever list
 * drives the listing (its values each give the page a compound SELECT arm repeating the other
 * conditions): each statement prepares on the real schema. Past the bound (501 tags) one does not,
 * which is what made view `all` answer 500. Each arm checks the other lists in terms of one size (a
 * list bound as one parameter, the tags one term), so a statement grows with the sum of the lists, not
 * with their product: 100 forms × 100 authors × 100 tags took SQLite seconds to prepare, on the event
 * loop. At the bound, such a listing answers what a plain filter of the documents does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_LIST_VALUES, VIEW_IDS, type ViewQuery } from '@docflow/contracts';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import type { Principal } from '@docflow/kit/http';
import { inboxAssignees, isDeleted, type Task } from '@docflow/workflow-model';
import { participantsOf } from '../documents/access';
import { type DocState, initialDoc } from '../documents/docForm';
import { countKeysFor, type ListingRequest, planListing, type ViewPlan } from './planner';
import { createViewsReadModel } from './read-model';
import { ALL_COUNT_KEY, migrateViewsSchema } from './schema';

const CALLERS: Record<string, { principal: Principal; standsInFor: string[] }> = {
  admin: { principal: { account: 'usr-x', subject: 'usr-x', roles: ['svcAdminDocsRW'] }, standsInFor: [] },
  reader: { principal: { account: 'usr-r', subject: 'usr-r', roles: [] }, standsInFor: [] },
  deputy: { principal: { account: 'usr-d', subject: 'usr-d', roles: [] }, standsInFor: ['usr-a', 'usr-b'] },
};
/** The lists that may drive: an indexed column's keys (an arm each), or a tag. */
const DRIVING = ['form', 'author', 'tags'] as const;
const values = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

/** Every list at `n` values; `driving`'s keys hold one row each and every other key many, so it drives. */
function planned(
  view: (typeof VIEW_IDS)[number],
  caller: string,
  driving: (typeof DRIVING)[number],
  n: number,
): ViewPlan {
  const query = {
    first: 0,
    pageSize: 100,
    form: values('form', n),
    author: values('usr-', n),
    tags: values('tag', n),
  } as ViewQuery;
  const request: ListingRequest = { view, query, ...CALLERS[caller]! };
  const prefix = { form: 'f:', author: 'a:', tags: 't:' }[driving];
  const rowCounts = new Map(
    countKeysFor(request).map((key) => [
      key,
      key !== ALL_COUNT_KEY && key.startsWith(prefix) ? 1 : 1_000_000,
    ]),
  );
  rowCounts.set(ALL_COUNT_KEY, 10_000_000);
  return planListing(request, rowCounts);
}

const statementsOf = (plan: ViewPlan) => [plan.count, plan.page, plan.matches].filter((s) => s !== null);

describe('list bounds against SQLite', () => {
  const db = openLocalDb(':memory:');
  migrateViewsSchema(db);

  it(`${MAX_LIST_VALUES} values in every list, each driving in turn: every view's statements prepare`, () => {
    // Many cases plan the same statement: each is prepared once.
    const statements = new Map<string, string>();
    for (const view of VIEW_IDS)
      for (const caller of Object.keys(CALLERS))
        for (const driving of DRIVING)
          for (const { sql } of statementsOf(planned(view, caller, driving, MAX_LIST_VALUES)))
            statements.set(sql, `${view}, ${caller}, ${driving} driving`);
    for (const [sql, where] of statements) assert.doesNotThrow(() => db.prepare(sql), where);
  });

  it('each statement grows with the sum of the lists, not their product: 100 values each at most 10 times 10 values each', () => {
    const sizes = (
      n: number,
      view: (typeof VIEW_IDS)[number],
      caller: string,
      driving: (typeof DRIVING)[number],
    ) =>
      statementsOf(planned(view, caller, driving, n)).map(({ sql, params }) => ({
        sql: sql.length,
        params: params.length,
      }));
    for (const view of VIEW_IDS)
      for (const caller of Object.keys(CALLERS))
        for (const driving of DRIVING) {
          const [ten, hundred] = [10, MAX_LIST_VALUES].map((n) => sizes(n, view, caller, driving));
          const where = `${view}, ${caller}, ${driving} driving`;
          assert.equal(hundred!.length, ten!.length, where);
          ten!.forEach((small, i) => {
            const large = hundred![i]!;
            assert.ok(
              large.params <= 10 * small.params,
              `${where}: ${small.params} → ${large.params} parameters`,
            );
            assert.ok(large.sql <= 10 * small.sql, `${where}: ${small.sql} → ${large.sql} characters`);
          });
        }
  });

  it('past the bound, 501 tags: a statement SQLite refuses (the 500 of issue 29)', () => {
    const refused = statementsOf(planned('all', 'admin', 'form', 501)).some((statement) => {
      try {
        db.prepare(statement.sql);
        return false;
      } catch {
        return true;
      }
    });
    assert.ok(refused);
  });
});

describe('a listing at the bound against a plain filter', () => {
  const N = 600;
  const USER_OF_TASK = ['usr-1', 'usr-2', 'usr-3', 'usr-d', 'usr-4', 'usr-5'];
  /** Documents of 110 forms and authors (10 outside the lists) and tags tag0 … tag100, most of them. */
  const docs = Array.from({ length: N }, (_, i): DocState => {
    const status = i % 37 === 0 ? 'deleted' : 'draft';
    const task = (k: number): Task => ({
      respId: `doc${i}-${k}`,
      phase: 'approval',
      step: 1,
      iteration: 1,
      assignee: USER_OF_TASK[(i + k) % USER_OF_TASK.length]!,
      state: (i + k) % 3 === 0 ? 'answered' : 'open',
      taskstatus: 0,
      content: '',
      openedAt: '',
    });
    const tasks = Object.fromEntries(Array.from({ length: i % 3 }, (_, k) => [`doc${i}-${k}`, task(k)]));
    return {
      ...initialDoc,
      exists: true,
      id: `doc${String(i).padStart(4, '0')}`,
      form: `form${i % 110}`,
      author: `usr-${(i * 7) % 110}`,
      status,
      // tag1 … tag100, one of them missing on every fifth document; tag0 on every fourth.
      tags: [
        ...(i % 4 === 0 ? ['tag0'] : []),
        ...values('tag', 101)
          .slice(1)
          .filter((t) => i % 5 !== 0 || t !== `tag${1 + (i % 100)}`),
      ],
      // Few distinct times: ties are ordered by id.
      created: new Date(Date.UTC(2026, 0, 1, 0, i % 97)).toISOString(),
      workflow: { ...initialDoc.workflow, status, tasks },
    };
  });
  const STANDS_IN_FOR: Record<string, string[]> = { 'usr-d': ['usr-2', 'usr-3'] };
  const principals: Principal[] = [
    { account: 'usr-x', subject: 'usr-x', roles: ['svcAdminDocsRW'] },
    { account: 'usr-1', subject: 'usr-1', roles: [] },
    { account: 'usr-d', subject: 'usr-d', roles: [] },
  ];

  function expected(view: (typeof VIEW_IDS)[number], q: ViewQuery, p: Principal) {
    const acting = new Set([p.subject, ...(STANDS_IN_FOR[p.subject] ?? [])]);
    const matches = docs.filter(
      (doc) =>
        !isDeleted(doc.workflow) &&
        (view !== 'mydocs' || doc.author === p.subject) &&
        (view !== 'inbox' || inboxAssignees(doc.workflow).some((u) => acting.has(u))) &&
        (view !== 'all' ||
          p.roles.includes('svcAdminDocsRW') ||
          [doc.author, ...participantsOf(doc)].some((u) => acting.has(u))) &&
        q.form!.includes(doc.form) &&
        q.author!.includes(doc.author) &&
        q.tags!.every((t) => doc.tags.includes(t)),
    );
    matches.sort((x, y) =>
      x.created === y.created ? (x.id < y.id ? 1 : -1) : x.created < y.created ? 1 : -1,
    );
    return { total: matches.length, ids: matches.slice(q.first, q.first + q.pageSize).map((d) => d.id) };
  }

  it(`${MAX_LIST_VALUES} forms, authors and tags: every view and caller lists what the filter does`, () => {
    const db = openLocalDb(':memory:');
    const views = createViewsReadModel(db, { standsInFor: (id) => STANDS_IN_FOR[id] ?? [] });
    views.putAll(docs);
    const lists = { form: values('form', MAX_LIST_VALUES), author: values('usr-', MAX_LIST_VALUES) };
    const queries: ViewQuery[] = [
      // tag1 … tag100: the forms or authors drive (an arm each), the tags checked in each arm.
      { first: 0, pageSize: 100, ...lists, tags: values('tag', 101).slice(1) },
      { first: 7, pageSize: 5, ...lists, tags: values('tag', 101).slice(1) },
      // tag0 … tag99: tag0, on a quarter of the documents, drives.
      { first: 0, pageSize: 100, ...lists, tags: values('tag', MAX_LIST_VALUES) },
    ];
    let arms = 0;
    let listed = 0;
    for (const view of VIEW_IDS)
      for (const principal of principals)
        for (const q of queries) {
          const want = expected(view, q, principal);
          // Twice: asked again, a counted total's matches are read and kept, the page sliced from them.
          for (const ask of [1, 2]) {
            const got = views.query(view, q, principal);
            const what = `ask ${ask}: ${view} as ${principal.subject}, first ${q.first}, ${q.tags![0]} …`;
            assert.equal(got.total, want.total, `total of ${what}`);
            assert.deepEqual(
              got.docs.map((d) => d.id),
              want.ids,
              `page of ${what}`,
            );
          }
          arms = Math.max(arms, views.plan(view, q, principal).page.sql.split(' UNION ALL ').length);
          listed += want.ids.length;
        }
    // The merge of an arm per form or author was among them, and the listings were not all empty.
    assert.equal(arms, MAX_LIST_VALUES);
    assert.ok(listed > 300, `${listed} documents listed`);
    db.close();
  });
});
