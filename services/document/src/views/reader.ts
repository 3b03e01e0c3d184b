/**
 * Answers listings from the view tables: looks up what the planner weighs (the caller's stand-ins and
 * the kept row counts), runs the count and the page it plans, and reads the page's documents.
 */
import type { ViewId, ViewQuery } from '@docflow/contracts';
import type { LocalDb } from '@docflow/kit/eventsourcing';
import type { Principal } from '@docflow/kit/http';
import type { DocState } from '../docForm';
import type { DeputiesReadModel } from './deputies';
import {
  countKeysFor,
  type ListingRequest,
  needsFacetCounts,
  planListing,
  readsAsDeputy,
  type SearchEstimate,
  type ViewPlan,
} from './planner';
import { FACET_PREFIX, SEARCH_TABLE } from './schema';
import { COMMON_TERM_DOCS, matchExpression, searchTerms } from './search';
import type { TotalCache } from './total-cache';

/** Search expressions whose commonness is kept at most, and for how long. */
const COMMON_TERMS_KEPT = 10_000;
const COMMON_TERM_KEPT_MS = 60_000;
/** Prepared listing statements kept at most (listings are built from a few shapes). */
const STATEMENT_CACHE_SIZE = 500;

export interface ViewPage {
  total: number;
  /** `gte`: the total is a bound, there are at least that many (a search with many matches). */
  totalRelation: 'eq' | 'gte';
  docs: DocState[];
}

export interface ViewsReader {
  /** The document as the views last stored it (undefined when deleted or never seen). */
  get(id: string): DocState | undefined;
  query(view: ViewId, query: ViewQuery, principal: Principal): ViewPage;
  /** The statements `query` runs for this listing. */
  plan(view: ViewId, query: ViewQuery, principal: Principal): ViewPlan;
}

export function createViewsReader(
  db: LocalDb,
  deputies: Pick<DeputiesReadModel, 'standsInFor'>,
  totals: TotalCache,
  commonTermDocs = COMMON_TERM_DOCS,
): ViewsReader {
  // Whether a term (or a whole search) is common: its first `commonTermDocs` matches, counted (~1 ms at
  // 10,000), and the answer kept for a while (a term's documents change slowly; a stale answer only
  // chooses the plan and the order, never which documents match).
  const matchesUpTo = db
    .prepare<[string, number], number>(
      `SELECT count(*) FROM (SELECT 1 FROM ${SEARCH_TABLE} WHERE ${SEARCH_TABLE} MATCH ? LIMIT ?)`,
    )
    .pluck();
  const kept = new Map<string, { common: boolean; until: number }>();
  const isCommon = (term: string) => {
    const now = Date.now();
    const known = kept.get(term);
    if (known && known.until > now) return known.common;
    if (kept.size >= COMMON_TERMS_KEPT) kept.clear();
    const common = (matchesUpTo.get(term, commonTermDocs) ?? 0) >= commonTermDocs;
    kept.set(term, { common, until: now + COMMON_TERM_KEPT_MS });
    return common;
  };
  const estimateOf = (q: string | undefined): SearchEstimate => {
    const terms = q === undefined ? [] : searchTerms(q);
    const commonTerms = new Set(terms.filter(isCommon));
    // Only when every term is common may the search have many matches (one term: known already).
    const manyMatches =
      terms.length > 0 &&
      commonTerms.size === terms.length &&
      (terms.length === 1 || isCommon(matchExpression(terms)));
    return { commonTerms, manyMatches, many: commonTermDocs };
  };
  const selectDoc = db.prepare<[string], string>('SELECT doc FROM view_docs WHERE id = ?').pluck();
  const countOf = db.prepare<[string], number>('SELECT n FROM view_counts WHERE key = ?').pluck();
  // Every key that starts with the prefix: those below the next character.
  const facetCounts = db.prepare<[string, string], { key: string; n: number }>(
    'SELECT key, n FROM view_counts WHERE key >= ? AND key < ?',
  );
  const facetEnd =
    FACET_PREFIX.slice(0, -1) + String.fromCharCode(FACET_PREFIX.charCodeAt(FACET_PREFIX.length - 1) + 1);
  const statements = new Map<string, ReturnType<typeof db.prepare<unknown[], unknown>>>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size > STATEMENT_CACHE_SIZE) statements.clear();
      statement = db.prepare<unknown[], unknown>(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const get = (id: string) => {
    const doc = selectDoc.get(id);
    return doc === undefined ? undefined : (JSON.parse(doc) as DocState);
  };

  function plan(view: ViewId, query: ViewQuery, principal: Principal): ViewPlan {
    const request: ListingRequest = {
      view,
      query,
      principal,
      standsInFor: readsAsDeputy(view, principal) ? deputies.standsInFor(principal.subject) : [],
    };
    const rowCounts = new Map<string, number>();
    for (const key of countKeysFor(request)) {
      const n = countOf.get(key);
      if (n !== undefined) rowCounts.set(key, n);
    }
    if (needsFacetCounts(request))
      for (const { key, n } of facetCounts.all(FACET_PREFIX, facetEnd)) rowCounts.set(key, n);
    return planListing(request, rowCounts, estimateOf(query.q));
  }

  return {
    get,
    plan,
    query(view, query, principal) {
      const { count, countCap, countFromCounts, countConditions, page } = plan(view, query, principal);
      let total = countFromCounts;
      let totalRelation: ViewPage['totalRelation'] = 'eq';
      if (count) {
        const key = `${count.sql}\n${JSON.stringify(count.params)}`;
        const kept = totals.get(key);
        if (kept !== undefined) total = kept;
        else {
          total =
            (prepared(count.sql)
              .pluck()
              .get(...count.params) as number | undefined) ?? 0;
          totals.set(key, total, countConditions);
        }
        if (countCap !== undefined && total > countCap) {
          total = countCap;
          totalRelation = 'gte';
        }
      }
      const docs: DocState[] = [];
      // Nothing matches: the page would only walk its range to find nothing.
      if (total === 0) return { total, totalRelation, docs };
      for (const row of prepared(page.sql).all(...page.params)) {
        const doc = get((row as { id: string }).id);
        if (doc) docs.push(doc);
      }
      return { total, totalRelation, docs };
    },
  };
}
