/**
 * `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header) on the document service's writes: the
 * first request with a key from a principal runs and its answer is kept with the fingerprint of its
 * body; a retry with the same key and body gets that answer again and writes nothing
 * (`Idempotent-Replayed: true`); while the first still runs, a retry gets 409 with `Retry-After`; the
 * same key with another body is 422. Only a success is kept: after a refusal or a failure the key is
 * free again, so a corrected or later retry can run. Every keyed route answers the document, so what
 * is kept is its status, a few headers and the document's id and revision; a replay answers the
 * document at that revision, the same bytes. A caller holding its bound of keys (store.ts) gets 429
 * with `Retry-After` for a new key, before anything runs.
 */
import { createHash } from 'node:crypto';
import { ProblemError, problems, type ServiceEnv } from '@docflow/kit/http';
import type { Context, MiddlewareHandler } from 'hono';
import type { IdempotencyStore, StoredAnswer } from './store';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** The answer's own headers a replay repeats; request ids and the like belong to the new request. */
const KEPT_HEADERS = ['content-type', 'x-error', 'etag'];
/** A structured-field string (`"…"`) or a bare token: printable ASCII, at most 255 characters. */
const KEY = /^[\x20-\x7e]{1,255}$/;
const RETRY_AFTER_SECONDS = '1';

/** The key the header names; 400 for one that is empty, too long or not printable ASCII. */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const raw = header.trim();
  const key = /^".*"$/.test(raw) ? raw.slice(1, -1).replace(/\\(["\\])/g, '$1') : raw;
  if (!KEY.test(key))
    throw problems.badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters');
  return key;
}

/** A fingerprint of what makes two requests the same request: method, target and body, in order. */
export function fingerprintOf(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

const recorded = new WeakMap<Request, string>();

/** For a route whose handler reads the body itself (the streamed create): the fingerprint it read. */
export function recordFingerprint(request: Request, fingerprint: string): void {
  recorded.set(request, fingerprint);
}

export interface IdempotentOptions {
  store: IdempotencyStore;
  /** The body the routes answer for the document `id` at revision `rev`: what a replay sends. */
  documentAt(id: string, rev: number): Promise<string>;
  /** Reads the body and fingerprints it (for a JSON route before the handler, else for a retry only). */
  fingerprint(c: Context<ServiceEnv>): Promise<string>;
  /** The handler reads the body and calls `recordFingerprint`: the first request is not read twice. */
  handlerRecords?: boolean;
}

/** The fingerprint of a JSON request: method, path with query, and the body's bytes. */
export async function jsonFingerprint(c: Context<ServiceEnv>): Promise<string> {
  const url = new URL(c.req.url);
  const body = Buffer.from(await c.req.arrayBuffer()).toString('base64');
  return fingerprintOf([c.req.method, url.pathname + url.search, body]);
}

/** The document an answer holds: every keyed route answers one (`_id`, `_meta._rev`). */
function documentOf(body: string): StoredAnswer['doc'] {
  const doc = JSON.parse(body) as { _id: string; _meta: { _rev: number } };
  return { id: doc._id, rev: doc._meta._rev };
}

function kept(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

/** @example app.post('/api/v2/docForm/:id/docResponse', idempotent({ store, fingerprint: jsonFingerprint })) */
export function idempotent(options: IdempotentOptions): MiddlewareHandler<ServiceEnv> {
  const { store } = options;
  return async function idempotencyKeyMiddleware(c, next) {
    const key = parseIdempotencyKey(c.req.header(IDEMPOTENCY_KEY_HEADER));
    if (key === undefined) return next();
    const principal = c.var.principal;
    const scope = `${principal.account} ${principal.runAs ?? ''}`;
    // Bounded per service account, whoever it acts for.
    const begun = await store.begin(principal.account, scope, key);
    if (begun.kind === 'full')
      throw problems.tooManyRequests(
        'this account holds as many Idempotency-Keys as it may for now: retry after the Retry-After seconds, or send the request without a key',
        begun.retryAfterSeconds,
      );
    if (begun.kind === 'running')
      throw new ProblemError(
        409,
        'idempotency-key-in-use',
        'Request in progress',
        'a request with this Idempotency-Key is still running: retry after the Retry-After seconds',
        undefined,
        { 'retry-after': RETRY_AFTER_SECONDS },
      );
    if (begun.kind === 'done') {
      if ((await options.fingerprint(c)) !== begun.fingerprint)
        throw problems.nothingChanged(
          'this Idempotency-Key was used with another request: use a new key for a new request',
          'idempotency-key-reused',
          'Idempotency-Key reused',
        );
      const { status, headers, doc } = begun.answer;
      return new Response(await options.documentAt(doc.id, doc.rev), {
        status,
        headers: { ...headers, [REPLAYED_HEADER]: 'true' },
      });
    }
    let finished = false;
    try {
      const upfront = options.handlerRecords ? undefined : await options.fingerprint(c);
      await next();
      const fingerprint = upfront ?? recorded.get(c.req.raw);
      if (c.res.status < 300 && !c.error && fingerprint) {
        const answer: StoredAnswer = {
          status: c.res.status,
          headers: kept(c.res.headers),
          doc: documentOf(await c.res.clone().text()),
        };
        await store.finish(scope, key, fingerprint, answer);
        finished = true;
      }
    } finally {
      if (!finished) await store.release(scope, key);
    }
  };
}
