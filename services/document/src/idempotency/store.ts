/**
 * Where the document service keeps what an `Idempotency-Key` answered: one row per principal and key,
 * `running` while the first request runs, then `done` with its body fingerprint and a reference to its
 * answer (status, a few headers, the document's id and revision: the replay reads the document at that
 * revision again, so a row holds a few hundred bytes whatever the document's size). Rows live 24
 * hours, and each caller (service account, whoever it acts as) holds at most `keysPerCaller` rows and
 * `bytesPerCaller` bytes of them: past that a new key is refused until its oldest row expires.
 *
 * Two adapters: the service's local database (sqlite-store.ts) when one process serves the documents,
 * and the shared PostgreSQL store (postgres-store.ts) when several do, so that a retry reaching another
 * process finds the first answer. Both decide a claim with `decideBegin`.
 */

/** How long a key's answer is kept and replayed. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * How long a `running` claim holds its key: longer than any request runs (the gateway gives up on a
 * request long before). A claim older than this was left by a process that died mid-request, and the
 * client's retry runs anew.
 */
export const RUNNING_CLAIM_MS = 10 * 60 * 1000;
export const PRUNE_EVERY_MS = 60 * 1000;

export interface IdempotencyBounds {
  /** Rows (keys) one caller may hold within KEY_LIFETIME_MS. */
  keysPerCaller: number;
  /** Bytes of rows (key, scope, fingerprint, answer) one caller may hold within KEY_LIFETIME_MS. */
  bytesPerCaller: number;
}

/**
 * A keyed write every 4.3 s around the clock per service account (whichever users it acts for); a row
 * takes 200–700 bytes (a 255-character key at most), so the bytes bound only bites for long keys.
 */
export const DEFAULT_BOUNDS: IdempotencyBounds = { keysPerCaller: 20_000, bytesPerCaller: 8 * 1024 * 1024 };

/** A kept answer: every keyed route answers the document, so a replay reads it at `doc.rev` again. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  doc: { id: string; rev: number };
}

export type Begun =
  | { kind: 'started' }
  | { kind: 'running' }
  | { kind: 'done'; fingerprint: string; answer: StoredAnswer }
  /** The caller holds its bound of keys: none is claimed; one is free again in `retryAfterSeconds`. */
  | { kind: 'full'; retryAfterSeconds: number };

export interface IdempotencyStore {
  /**
   * Claims the key of `scope` (a principal of `caller`) for a new request, or says it is taken (still
   * running, or done with its answer) or that the caller holds its bound of keys.
   */
  begin(caller: string, scope: string, key: string, now?: number): Promise<Begun>;
  /** The claimed request answered: kept for replay. */
  finish(scope: string, key: string, fingerprint: string, answer: StoredAnswer): Promise<void>;
  /** The claimed request failed or was refused: the key is free again. */
  release(scope: string, key: string): Promise<void>;
}

/** A key's row as both adapters read it. */
export type KeyRow = {
  state: 'running' | 'done';
  fingerprint: string | null;
  answer: string | null;
  created_at: number;
};

/** What the caller holds within the key lifetime. */
export type HeldByCaller = {
  keys: number;
  bytes: number;
  oldest: number | null;
};

/**
 * Whether a new request may claim the key: what the row of the key says while it lives, else whether
 * the caller still has room for `bytes` more. `claim` means: write the running row now.
 */
export function decideBegin(
  row: KeyRow | undefined,
  held: () => HeldByCaller,
  bytes: number,
  bounds: IdempotencyBounds,
  now: number,
): Begun | { kind: 'claim' } {
  if (row && row.created_at >= now - KEY_LIFETIME_MS) {
    if (row.state === 'done')
      return { kind: 'done', fingerprint: row.fingerprint!, answer: JSON.parse(row.answer!) as StoredAnswer };
    if (row.created_at >= now - RUNNING_CLAIM_MS) return { kind: 'running' };
  }
  const { keys, bytes: heldBytes, oldest } = held();
  if (keys >= bounds.keysPerCaller || heldBytes + bytes > bounds.bytesPerCaller) {
    const freeAt = (oldest ?? now) + KEY_LIFETIME_MS;
    return { kind: 'full', retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now) / 1000)) };
  }
  return { kind: 'claim' };
}

export const bytesOf = (...texts: string[]) => texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
