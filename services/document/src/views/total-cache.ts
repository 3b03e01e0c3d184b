/**
 * Listing totals kept between projection batches, so a total counted over an intersection (two tags,
 * a tag among a reader's documents) is counted once rather than on every page.
 *
 * Exact, not approximate: a listing's total can only change when a document that matches it before or
 * after a write changes, and such a document lies under a key of every keyed condition of the listing
 * (its tag, its author, its form, its reader...). The writer reports every `view_counts` key of each
 * document it rewrites, before and after (`touched`, every key even when its count stays); a kept
 * total is dropped when each of its conditions has a touched key (a condition none of whose keys was
 * touched means no changed document matched the listing). A total whose listing has no keyed condition
 * is not kept. Every write to the view tables goes through the writer of this process (local.db
 * belongs to one process; `views:rebuild` refuses a directory in use), and both run on one thread, so
 * no read sees a total from before a write it follows.
 */

/** Totals kept at most (listings are built from a few shapes; the oldest goes first). */
const MAX_TOTALS = 1_000;

interface Kept {
  total: number;
  /** Per keyed condition of the listing: its count keys (any one touched touches the condition). */
  conditions: readonly (readonly string[])[];
}

export interface TotalCache {
  /** The kept total of the count statement (sql and parameters), if no write since touched it. */
  get(statement: string): number | undefined;
  /** Keeps `total` until a write touches a key of each of `conditions` (none: not kept). */
  set(statement: string, total: number, conditions: readonly (readonly string[])[]): void;
  /** A write rewrote documents lying (before or after) under these `view_counts` keys. */
  touched(keys: ReadonlySet<string>): void;
  /** Every row may have changed (the tables were cleared). */
  clear(): void;
}

export function createTotalCache(): TotalCache {
  const kept = new Map<string, Kept>();
  return {
    get: (statement) => kept.get(statement)?.total,
    set(statement, total, conditions) {
      if (conditions.length === 0) return;
      if (kept.size >= MAX_TOTALS) kept.delete(kept.keys().next().value as string);
      kept.set(statement, { total, conditions });
    },
    touched(keys) {
      if (keys.size === 0) return;
      for (const [statement, { conditions }] of kept) {
        if (conditions.every((condition) => condition.some((key) => keys.has(key)))) kept.delete(statement);
      }
    },
    clear: () => kept.clear(),
  };
}
