/**
 * Listing totals kept between projection batches, so a total counted over an intersection (two tags,
 * a tag among a reader's documents) is counted once rather than on every page; and beside a small
 * total, every match of its listing in order, so that a sparse intersection (bob's 63 `audit`
 * documents among the tag's 10,000 at 1,000,000) is not walked again for each page.
 *
 * Exact, not approximate: a listing's total can only change when a document that matches it before or
 * after a write changes, and such a document lies under a key of every keyed condition of the listing
 * (its tag, its author, its form, its reader...). The writer reports every `view_counts` key of each
 * document it rewrites, before and after (`touched`, every key even when its count stays); a kept
 * total is dropped when each of its conditions has a touched key (a condition none of whose keys was
 * touched means no changed document matched the listing). The same holds for the matches: which
 * documents match, and their order (created, id), change only with a document that matches before or
 * after; each is dropped with its total. A total whose listing has no keyed condition is not kept.
 * Every write to the view tables goes through the writer of this process (local.db belongs to one
 * process; `views:rebuild` refuses a directory in use), and both run on one thread, so no read sees a
 * total from before a write it follows.
 */

/** Totals kept at most (listings are built from a few shapes; the oldest goes first). */
const MAX_TOTALS = 1_000;
/** Ids of matches kept at most, over every kept total (~60 bytes each: ~6 MiB; the oldest go first). */
const MAX_MATCH_IDS = 100_000;

interface Kept {
  total: number;
  /** Per keyed condition of the listing: its count keys (any one touched touches the condition). */
  conditions: readonly (readonly string[])[];
  /** Every match's id, in the listing's order, when kept. */
  matches?: readonly string[];
}

export interface TotalCache {
  /** The kept total of the count statement (sql and parameters), if no write since touched it. */
  get(statement: string): number | undefined;
  /** Keeps `total` until a write touches a key of each of `conditions` (none: not kept). */
  set(statement: string, total: number, conditions: readonly (readonly string[])[]): void;
  /** The kept matches of the listing whose count statement this is (kept with its total). */
  matches(statement: string): readonly string[] | undefined;
  /** Keeps the listing's matches with its kept total (dropped with it); none kept without a total. */
  setMatches(statement: string, ids: readonly string[]): void;
  /** A write rewrote documents lying (before or after) under these `view_counts` keys. */
  touched(keys: ReadonlySet<string>): void;
  /** Every row may have changed (the tables were cleared). */
  clear(): void;
}

export function createTotalCache(maxMatchIds = MAX_MATCH_IDS): TotalCache {
  const kept = new Map<string, Kept>();
  let matchIds = 0;
  const drop = (statement: string) => {
    matchIds -= kept.get(statement)?.matches?.length ?? 0;
    kept.delete(statement);
  };
  return {
    get: (statement) => kept.get(statement)?.total,
    set(statement, total, conditions) {
      if (conditions.length === 0) return;
      drop(statement);
      if (kept.size >= MAX_TOTALS) drop(kept.keys().next().value as string);
      kept.set(statement, { total, conditions });
    },
    matches: (statement) => kept.get(statement)?.matches,
    setMatches(statement, ids) {
      const entry = kept.get(statement);
      if (!entry || ids.length > maxMatchIds) return;
      matchIds += ids.length - (entry.matches?.length ?? 0);
      entry.matches = ids;
      // The oldest kept matches go first (their totals stay).
      for (const other of kept.values()) {
        if (matchIds <= maxMatchIds) break;
        if (other === entry || !other.matches) continue;
        matchIds -= other.matches.length;
        delete other.matches;
      }
    },
    touched(keys) {
      if (keys.size === 0) return;
      for (const [statement, { conditions }] of kept) {
        if (conditions.every((condition) => condition.some((key) => keys.has(key)))) drop(statement);
      }
    },
    clear() {
      kept.clear();
      matchIds = 0;
    },
  };
}
