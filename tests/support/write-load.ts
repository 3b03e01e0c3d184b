/**
 * A bounded write load for the fault tests: account and document creations through the gateway,
 * each acknowledged (2xx) write recorded with what it wrote, every answer recorded with its status,
 * `Retry-After` and time; plus a read probe, and the checks that every acknowledged write is present
 * exactly once afterwards.
 */
import { createHash, randomBytes } from 'node:crypto';
import { eventually, multipart } from './documents';
import { type Api, apiClient } from './http';

/** A request not answered within this long counts as a hang (the stated bound of the fault tests). */
export const HANG_BOUND_MS = 20_000;

export type WriteKind = 'account' | 'document';

export interface AcknowledgedWrite {
  kind: WriteKind;
  /** What makes the write recognisable: the e-mail of an account, the subject of a document. */
  key: string;
  id: string;
  /** Document writes: the attached file's id and its content's SHA-256. */
  fileId?: string;
  sha256?: string;
}

export interface Answer {
  /** Milliseconds since the load started, when the answer (or the give-up) came. */
  at: number;
  what: string;
  /** 0: no answer (refused connection or the hang bound passed). */
  status: number;
  retryAfter: string | null;
  ms: number;
}

export interface LoadResult {
  acknowledged: AcknowledgedWrite[];
  answers: Answer[];
}

export interface LoadOptions {
  baseUrl: string;
  adminKey: string;
  /** Which writes, in turn (default both). */
  kinds?: WriteKind[];
  /** Bounds: the load stops after this many writes or this long, whichever comes first. */
  maxWrites: number;
  maxMs: number;
  concurrency?: number;
  /** Bytes of the file each document carries (default 64 KiB: an upload MinIO can be cut off in). */
  fileBytes?: number;
}

export interface RunningLoad {
  /** Stops starting writes; resolves with the result once those in flight are answered. */
  stop(): Promise<LoadResult>;
  /** Resolves with the result once the load stopped by its bounds. */
  done: Promise<LoadResult>;
  /** Milliseconds since the load started. */
  elapsed(): number;
  /** Acknowledged writes so far. */
  acknowledgedCount(): number;
}

/** Starts the load in the background. */
export function startWriteLoad(options: LoadOptions): RunningLoad {
  const kinds = options.kinds ?? ['account', 'document'];
  const run = randomBytes(4).toString('hex');
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const result: LoadResult = { acknowledged: [], answers: [] };
  let next = 0;
  let stopped = false;

  async function timed(what: string, call: (signal: AbortSignal) => Promise<Response>) {
    const t0 = performance.now();
    const signal = AbortSignal.timeout(HANG_BOUND_MS);
    const res = await call(signal).catch(() => undefined);
    const body = res ? await res.text().catch(() => '') : '';
    result.answers.push({
      at: elapsed(),
      what,
      status: res?.status ?? 0,
      retryAfter: res?.headers.get('retry-after') ?? null,
      ms: Math.round(performance.now() - t0),
    });
    return res?.ok ? (JSON.parse(body) as Record<string, any>) : undefined;
  }

  async function write(i: number) {
    const kind = kinds[i % kinds.length]!;
    const key = `${run}-${i}`;
    if (kind === 'account') {
      const email = `load-${key}@example.com`;
      const body = await timed('create account', (signal) =>
        fetch(`${options.baseUrl}/api/admin/v1/accounts`, {
          method: 'POST',
          signal,
          headers: { authorization: `Bearer ${options.adminKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ kind: 'person', email, name_first: 'Load', name_last: key }),
        }),
      );
      if (body) result.acknowledged.push({ kind, key: email, id: body._id_sys });
      return;
    }
    const content = fileContent(key, options.fileBytes ?? 64 * 1024);
    const body = await timed('create document', (signal) =>
      fetch(`${options.baseUrl}/api/v2/docForm/form/memo`, {
        method: 'POST',
        signal,
        headers: { authorization: `Bearer ${options.adminKey}` },
        body: multipart({
          docForm: { valuesByTags: { subject: key } },
          files: [{ name: `${key}.bin`, content }],
        }),
      }),
    );
    if (body)
      result.acknowledged.push({
        kind,
        key,
        id: body._id,
        fileId: body.filesList?.[0]?.id,
        sha256: createHash('sha256').update(content).digest('hex'),
      });
  }

  const deadline = Date.now() + options.maxMs;
  async function worker() {
    while (!stopped && next < options.maxWrites && Date.now() < deadline) await write(next++);
  }
  const done = Promise.all(Array.from({ length: options.concurrency ?? 2 }, worker)).then(() => result);
  return {
    done,
    elapsed,
    acknowledgedCount: () => result.acknowledged.length,
    stop() {
      stopped = true;
      return done;
    },
  };
}

/** Deterministic content, different for every key. */
export function fileContent(key: string, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let block = createHash('sha256').update(key).digest();
  for (let o = 0; o < bytes; o += block.length) {
    out.set(block.subarray(0, Math.min(block.length, bytes - o)), o);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

/**
 * The longest window of 503s: per kind of request, from the first to the last 503 of a run of
 * consecutive 503 answers (ms); and how many answers were 503 in all.
 */
export function longest503Window(answers: Answer[]): { windowMs: number; count: number } {
  let windowMs = 0;
  for (const what of new Set(answers.map((a) => a.what))) {
    let first: number | undefined;
    for (const a of answers.filter((x) => x.what === what).sort((x, y) => x.at - y.at)) {
      if (a.status !== 503) first = undefined;
      else {
        first ??= a.at;
        windowMs = Math.max(windowMs, a.at - first);
      }
    }
  }
  return { windowMs, count: answers.filter((a) => a.status === 503).length };
}

/** Answers that break the rules: anything but 2xx or 503, a 503 without Retry-After, no answer. */
export function badAnswers(answers: Answer[]): Answer[] {
  return answers.filter(
    (a) => !(a.status >= 200 && a.status < 300) && !(a.status === 503 && a.retryAfter !== null),
  );
}

/** One GET through the gateway, answered or given up on within HANG_BOUND_MS; `at` counts from `since`. */
export async function timedGet(baseUrl: string, key: string, path: string, since = 0): Promise<Answer> {
  const t0 = performance.now();
  const res = await fetch(baseUrl + path, {
    headers: { authorization: `Bearer ${key}` },
    signal: AbortSignal.timeout(HANG_BOUND_MS),
  }).catch(() => undefined);
  await res?.arrayBuffer().catch(() => undefined);
  return {
    at: Math.round(performance.now() - since),
    what: `GET ${path}`,
    status: res?.status ?? 0,
    retryAfter: res?.headers.get('retry-after') ?? null,
    ms: Math.round(performance.now() - t0),
  };
}

/** Up to ten answers, one a line, for an assertion's message. */
export function describeAnswers(answers: Answer[]): string[] {
  return answers
    .slice(0, 10)
    .map((a) => `${a.what} at ${a.at} ms: ${a.status} (retry-after ${a.retryAfter}) in ${a.ms} ms`);
}

/** Reads that must keep working: `paths` GET in a loop until stopped; every answer recorded. */
export function startReadProbe(baseUrl: string, key: string, paths: string[]) {
  const answers: Answer[] = [];
  const started = performance.now();
  let stopped = false;
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      answers.push(await timedGet(baseUrl, key, paths[i % paths.length]!, started));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    answers,
    async stop() {
      stopped = true;
      await loop;
      return answers;
    },
  };
}

/**
 * What is missing or doubled of the acknowledged writes once the read models converged (empty when
 * every write is there exactly once): each document readable by id with its subject and its file's
 * exact bytes, and listed once in the `all` view; each account readable from the identity service and
 * known to the gateway's read model (run-as by its e-mail).
 */
export async function missingOrDoubled(baseUrl: string, adminKey: string, acked: AcknowledgedWrite[]) {
  const api = apiClient(baseUrl);
  const problems: string[] = [];
  const listed = await viewCounts(api, adminKey);
  for (const w of acked) {
    if (w.kind === 'document') {
      const doc = await api('GET', `/api/v2/docForm/${w.id}`, { key: adminKey });
      if (doc.status !== 200) problems.push(`document ${w.key} (${w.id}): GET ${doc.status}`);
      else if (doc.body.valuesByTags?.subject !== w.key)
        problems.push(`document ${w.key}: subject ${doc.body.valuesByTags?.subject}`);
      const file = await fetch(`${baseUrl}/api/v2/docForm/${w.id}/file/${w.fileId}`, {
        headers: { authorization: `Bearer ${adminKey}` },
      });
      const bytes = Buffer.from(await file.arrayBuffer());
      const sha = createHash('sha256').update(bytes).digest('hex');
      if (file.status !== 200 || sha !== w.sha256)
        problems.push(`document ${w.key}: file ${file.status}, ${bytes.length} bytes, sha256 ${sha}`);
      if (listed.get(w.id) !== 1) problems.push(`document ${w.key}: listed ${listed.get(w.id) ?? 0} times`);
    } else {
      const account = await api('GET', `/api/admin/v1/accounts/${w.id}`, { key: adminKey });
      if (account.status !== 200 || account.body.email !== w.key)
        problems.push(`account ${w.key} (${w.id}): GET ${account.status}`);
      const asUser = await api('GET', `/api/v2/person/${w.id}`, { key: adminKey, runAs: w.key });
      if (asUser.status !== 200) problems.push(`account ${w.key}: run-as ${asUser.status}`);
    }
  }
  const docIds = new Set(acked.filter((w) => w.kind === 'document').map((w) => w.id));
  const accountIds = new Set(acked.filter((w) => w.kind === 'account').map((w) => w.id));
  if (docIds.size !== acked.filter((w) => w.kind === 'document').length)
    problems.push('one document id acknowledged twice');
  if (accountIds.size !== acked.filter((w) => w.kind === 'account').length)
    problems.push('one account id acknowledged twice');
  return problems;
}

/** How many times each document id appears in the admin's `all` view, every page. */
async function viewCounts(api: Api, adminKey: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let first = 0; ; first += 100) {
    const page = await api('GET', `/api/v2/docForm/view/all?first=${first}&pageSize=100`, { key: adminKey });
    if (page.status !== 200) throw new Error(`view all: ${page.status} ${page.text}`);
    const docs = page.body as Array<{ _id: string }>;
    for (const d of docs) counts.set(d._id, (counts.get(d._id) ?? 0) + 1);
    if (docs.length < 100) return counts;
  }
}

/**
 * Waits (bounded by `timeoutMs`) until every acknowledged write is there exactly once; returns how
 * long that took and what is still wrong.
 */
export async function converge(
  baseUrl: string,
  adminKey: string,
  acked: AcknowledgedWrite[],
  timeoutMs: number,
) {
  const t0 = performance.now();
  const problems = await eventually(
    () => missingOrDoubled(baseUrl, adminKey, acked).catch((e: Error) => [e.message]),
    (p) => p.length === 0,
    timeoutMs,
  );
  return { problems, ms: Math.round(performance.now() - t0) };
}
