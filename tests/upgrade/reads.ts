/**
 * Reads of the API recorded so that two servers on the same data can be compared: status, the headers
 * that carry data (ETag, counts, content type and disposition) and the body (JSON parsed, NDJSON by
 * line, an export bundle by entry, anything else by size and SHA-256).
 *
 * Allowed differences, the time of the request itself: an export's `exportedAt` and its tar entries'
 * modification times (the time of the export) are left out; and members the earlier answer did not have
 * (a field a later release adds, e.g. a document's `title`): what it had must read the same.
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { BUNDLE_MANIFEST } from '@docflow/contracts';
import { extract } from 'tar-stream';
import { eventually } from '../support/documents';

/** How long a listing may take to show again what it showed before the restart. */
const LISTING_CONVERGE_MS = 15_000;

export interface Read {
  /** What the read is about (a document's name, `persons`, `views`, ...): one comparison each. */
  subject: string;
  path: string;
  key: string;
  runAs?: string;
  accept?: string;
  /** A listing (view, search): it may lag behind a write, and converges within a bounded time. */
  listing?: boolean;
}

export interface Recorded {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

const KEPT_HEADERS = [
  'content-type',
  'content-disposition',
  'etag',
  'svc-total-count',
  'svc-total-count-relation',
];

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** An export bundle's entries in order: the manifest without `exportedAt`, every other by its bytes. */
async function bundleEntries(tar: Buffer): Promise<unknown[]> {
  const entries: unknown[] = [];
  const reader = extract();
  reader.end(tar);
  for await (const entry of reader) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    const { name, type, size } = entry.header;
    if (name !== BUNDLE_MANIFEST) entries.push({ name, type, size, sha256: sha256(bytes) });
    else {
      const { exportedAt: _exportTime, ...manifest } = JSON.parse(bytes.toString('utf8'));
      entries.push({ name, type, manifest });
    }
  }
  return entries;
}

export async function record(baseUrl: string, read: Read): Promise<Recorded> {
  const headers: Record<string, string> = { authorization: `Bearer ${read.key}` };
  if (read.runAs) headers['svc-run-as'] = read.runAs;
  if (read.accept) headers.accept = read.accept;
  const res = await fetch(baseUrl + read.path, { headers, signal: AbortSignal.timeout(30_000) });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  let body: unknown;
  if (/ndjson/.test(type))
    body = bytes
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  else if (/json/.test(type)) body = JSON.parse(bytes.toString('utf8'));
  else if (/x-tar/.test(type)) body = await bundleEntries(bytes);
  else body = { bytes: bytes.length, sha256: sha256(bytes) };
  return {
    status: res.status,
    headers: Object.fromEntries(KEPT_HEADERS.map((h) => [h, res.headers.get(h)])),
    body,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * `now` without the object members `earlier` lacks (at any depth; arrays element by element): what is
 * compared with `earlier`, so that a member an upgrade adds is no difference and any other change is.
 */
export function withoutAdded(now: unknown, earlier: unknown): unknown {
  if (Array.isArray(now) && Array.isArray(earlier))
    return now.map((item, i) => (i < earlier.length ? withoutAdded(item, earlier[i]) : item));
  if (isObject(now) && isObject(earlier))
    return Object.fromEntries(
      Object.entries(now)
        .filter(([key]) => key in earlier)
        .map(([key, value]) => [key, withoutAdded(value, earlier[key])]),
    );
  return now;
}

/** `read`'s key in a record: the same path read as another principal is another read. */
export const readKey = (read: Read) =>
  `${read.runAs ? `as ${read.runAs} ` : ''}${read.accept ? `[${read.accept}] ` : ''}GET ${read.path}`;

export type Records = Map<string, Map<string, Recorded>>;

/**
 * Every read, one after the other, by subject then by key. Given what an earlier server answered,
 * a listing that answers otherwise is read again until it answers the same or its bound passed.
 */
export async function recordAll(baseUrl: string, reads: Read[], earlier?: Records): Promise<Records> {
  const bySubject: Records = new Map();
  for (const read of reads) {
    const key = readKey(read);
    const before = earlier?.get(read.subject)?.get(key);
    const once = () => record(baseUrl, read);
    const recorded =
      read.listing && before
        ? await eventually(
            once,
            (r) => isDeepStrictEqual(withoutAdded(r, before), before),
            LISTING_CONVERGE_MS,
          )
        : await once();
    const subject = bySubject.get(read.subject) ?? new Map<string, Recorded>();
    subject.set(key, recorded);
    bySubject.set(read.subject, subject);
  }
  return bySubject;
}
