/**
 * Answers listings from the view tables: looks up what the planner weighs (the caller's stand-ins and
 * the kept row counts), runs the count and the page it plans, and reads the page's documents. A counted
 * total is kept between writes (total-cache.ts), and when small, asked again, every match with it.
 */
import type { ViewId, ViewQuery } from '@docflow/contracts';
import type { LocalDb } from '@docflow/kit/eventsourcing';
import type { Principal } from '@docflow/kit/http';
import type { DocState } from '../documents/docForm';
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
/** A prefix standing for more words than this is not spelled out (its search is not walked). */
const PREFIX_WORDS_MAX = 16;
/** Prepared listing statements kept at most (listings are built from a few shapes). */
const STATEMENT_CACHE_SIZE = 500;
/**
 * A listing whose counted total is at most this, asked again before a write touches it, reads every
 * match once and keeps them with the total (total-cache.ts): its pages are then slices. A sparse
 * intersection otherwise walks most of its driving range for every page.
 */
const MATCHES_KEPT_MAX = 2_000;

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
  /** The search index changed: the words a prefix stands for are looked up again. */
  written(): void;
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
  // The words of the index a prefix term stands for (fts5vocab, a range of its terms: it reads their
  // documents to count them, ~40 ms for a word of every document at 1,000,000), kept until the next
  // write to the index; undefined when more than PREFIX_WORDS_MAX.
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${SEARCH_TABLE}_words USING fts5vocab(main, ${SEARCH_TABLE}, 'row')`,
  );
  const wordsFrom = db
    .prepare<[string, string, number], string>(
      `SELECT term FROM temp.${SEARCH_TABLE}_words WHERE term >= ? AND term < ? LIMIT ?`,
    )
    .pluck();
  const prefixWords = new Map<string, string | undefined>();
  const wordsOfPrefix = (term: string): string | undefined => {
    if (!term.endsWith('*')) return term;
    if (prefixWords.has(term)) return prefixWords.get(term);
    // The index keeps words folded as its tokenizer folds them (unicode61 remove_diacritics 2).
    const prefix = term.slice(1, -2).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    const words = wordsFrom.all(prefix, `${prefix}\u{10FFFF}`, PREFIX_WORDS_MAX + 1);
    const spelled =
      words.length === 0 || words.length > PREFIX_WORDS_MAX
        ? undefined
        : `(${words.map((w) => `"${w}"`).join(' OR ')})`;
    if (prefixWords.size >= COMMON_TERMS_KEPT) prefixWords.clear();
    prefixWords.set(term, spelled);
    return spelled;
  };
  const estimateOf = (q: string | undefined): SearchEstimate => {
    const terms = q === undefined ? [] : searchTerms(q);
    const commonTerms = new Set(terms.filter(isCommon));
    // Only when every term is common may the search have many matches (one term: known already).
    const manyMatches =
      terms.length > 0 &&
      commonTerms.size === terms.length &&
      (terms.length === 1 || isCommon(matchExpression(terms)));
    const last = manyMatches ? wordsOfPrefix(terms.at(-1) as string) : undefined;
    return {
      commonTerms,
      // An OR group takes an explicit AND (FTS5 has no implicit AND before a parenthesis).
      ...(last ? { walk: [...terms.slice(0, -1), last].join(' AND ') } : {}),
      many: commonTermDocs,
    };
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
    written: () => prefixWords.clear(),
    query(view, query, principal) {
      const { count, countCap, countFromCounts, countConditions, page, matches } = plan(
        view,
        query,
        principal,
      );
      let total = countFromCounts;
      let totalRelation: ViewPage['totalRelation'] = 'eq';
      let ids: readonly string[] | undefined;
      if (count) {
        const key = `${count.sql}\n${JSON.stringify(count.params)}`;
        const kept = totals.get(key);
        if (kept !== undefined) {
          total = kept;
          // Asked again: its matches read once, if few (a listing asked once reads its page only).
          if (matches && total > 0 && total <= MATCHES_KEPT_MAX) {
            ids = totals.matches(key);
            if (!ids) {
              const rows = prepared(matches.sql).all(...matches.params, MATCHES_KEPT_MAX) as { id: string }[];
              ids = rows.map((row) => row.id);
              totals.setMatches(key, ids);
            }
          }
        } else {
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
      const pageIds =
        ids?.slice(query.first, query.first + query.pageSize) ??
        (prepared(page.sql).all(...page.params) as { id: string }[]).map((row) => row.id);
      for (const id of pageIds) {
        const doc = get(id);
        if (doc) docs.push(doc);
      }
      return { total, totalRelation, docs };
    },
  };
}
