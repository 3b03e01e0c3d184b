/**
 * The bound on list query parameters (contracts' MAX_LIST_VALUES, issue 29 finding 7) keeps every
 * listing's statements within what SQLite accepts, in every view, for every caller, whichever list
 * drives the listing (its values each give the page a compound SELECT arm repeating the other
 * conditions): each statement prepares on the real schema. Past the bound (501 tags) one does not,
 * which is what made view `all` answer 500.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_LIST_VALUES, VIEW_IDS, type ViewQuery } from '@docflow/contracts';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import type { Principal } from '@docflow/kit/http';
import { countKeysFor, type ListingRequest, planListing, type ViewPlan } from './planner';
import { ALL_COUNT_KEY, migrateViewsSchema } from './schema';

const CALLERS: Record<string, { principal: Principal; standsInFor: string[] }> = {
  admin: { principal: { account: 'usr-x', subject: 'usr-x', roles: ['svcAdminDocsRW'] }, standsInFor: [] },
  reader: { principal: { account: 'usr-r', subject: 'usr-r', roles: [] }, standsInFor: [] },
  deputy: { principal: { account: 'usr-d', subject: 'usr-d', roles: [] }, standsInFor: ['usr-a', 'usr-b'] },
};
/** The lists that may drive; `author` drives as `form` does (an indexed column's keys, an arm each). */
const DRIVING = ['form', 'tags'] as const;
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
  const prefix = { form: 'f:', tags: 't:' }[driving];
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
