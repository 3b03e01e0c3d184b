/** A files service on the embedded adapters in a temp directory, and request helpers, for the int tests. */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BlobStore, createLocalBlobStore } from '@docflow/blobstore';
import { type Bus, createInProcessBus } from '@docflow/bus';
import {
  claimFilesRoute,
  type EventEnvelope,
  pathOf,
  releaseClaimRoute,
  storeFileRoute,
} from '@docflow/contracts';
import { createSqliteEventStore, type EventStore, type RecordedEvent } from '@docflow/eventstore';
import { createLogger } from '@docflow/kit';
import { type LocalDb, openLocalDb, recordEvents } from '@docflow/kit/eventsourcing';
import { encodePrincipal, INTERNAL_TOKEN_HEADER, inProcessClient, PRINCIPAL_HEADER } from '@docflow/kit/http';
import { withTimeout } from '@docflow/timing';
import { createFilesService, type FilesService } from './service';
import { FILE_NAME_HEADER } from './upload-headers';

export const TOKEN = 'test-internal-token-of-at-least-32-chars';
export const NAMESPACE = 'files-test';
const WAIT_MS = 5000;

export const authHeaders = {
  [INTERNAL_TOKEN_HEADER]: TOKEN,
  [PRINCIPAL_HEADER]: encodePrincipal({
    account: 'usr-00000000-0000-4000-8000-000000000001',
    subject: 'usr-00000000-0000-4000-8000-000000000001',
    roles: [],
  }),
};

export interface HarnessOptions {
  /** Default 1 MiB. */
  maxUploadBytes?: number;
  /** Default 3600 (the sweeper's timer never fires in a test; tests run its passes themselves). */
  uploadGraceSeconds?: number;
  /** Wraps the blob store the service is given, e.g. to hold an operation at a chosen moment. */
  wrapBlobs?: (blobs: BlobStore) => BlobStore;
  /** A bus shared with other harnesses (default: one of its own, closed with it). */
  bus?: Bus;
  /** Default 'test'; names the instance's consumer group of document events. */
  instanceId?: string;
}

export interface Harness {
  service: FilesService;
  store: EventStore;
  /** The blob store itself, not the wrapped one the service uses. */
  blobs: BlobStore;
  bus: Bus;
  db: LocalDb;
  /** Stops the service and its engines, and starts them again on the same directory. */
  restart(whileStopped?: (engines: Pick<Harness, 'store' | 'blobs'>) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-files-'));
  const open = async () => {
    const store = createSqliteEventStore({ file: join(dir, 'events.db') });
    const blobs = await createLocalBlobStore({ dir: join(dir, 'blobs') });
    const bus = options.bus ?? createInProcessBus();
    const db = openLocalDb(join(dir, 'local.db'));
    const service = createFilesService({
      service: 'files',
      store,
      blobs: options.wrapBlobs?.(blobs) ?? blobs,
      bus,
      db,
      log: createLogger('files-test', 'silent'),
      namespace: NAMESPACE,
      internalToken: TOKEN,
      maxUploadBytes: options.maxUploadBytes ?? 1024 * 1024,
      uploadGraceSeconds: options.uploadGraceSeconds ?? 3600,
      orphanSweepSeconds: 3600,
      instanceId: options.instanceId ?? 'test',
      // A document service with no document: the attachment index's rebuild reads one empty page.
      document: inProcessClient(() => Response.json({ documents: [], next: null })),
    });
    await service.start();
    return { service, store, blobs, bus, db };
  };
  const shut = async (h: Harness, whileStopped?: Parameters<Harness['restart']>[0]) => {
    await h.service.stop();
    if (whileStopped) await whileStopped(h);
    if (!options.bus) await h.bus.close();
    await h.blobs.close();
    await h.store.close();
    h.db.close();
  };
  const harness: Harness = {
    ...(await open()),
    async restart(whileStopped) {
      await shut(harness, whileStopped);
      Object.assign(harness, await open());
    },
    async close() {
      await shut(harness);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

export interface UploadOptions {
  fileName?: string;
  allowDupl?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** `storeFileRoute` with `body` as the raw file. */
export function upload(
  service: FilesService,
  body: Uint8Array | ReadableStream<Uint8Array>,
  options: UploadOptions = {},
): Promise<Response> {
  const path = pathOf(storeFileRoute, {}, { allowDupl: options.allowDupl });
  const init = {
    method: 'POST',
    body,
    duplex: 'half',
    headers: {
      ...authHeaders,
      [FILE_NAME_HEADER]: encodeURIComponent(options.fileName ?? 'file.bin'),
      ...(options.contentType ? { 'content-type': options.contentType } : {}),
      ...options.headers,
    },
  } as RequestInit;
  return Promise.resolve(service.app.fetch(new Request(`http://files${path}`, init)));
}

/** A request to the service's app, in-process. */
export function call(service: FilesService, path: string, init: RequestInit = {}): Promise<Response> {
  return Promise.resolve(service.app.fetch(new Request(`http://files${path}`, init)));
}

/** `claimFilesRoute`: `docId` claims `files` (with `allowDupl` when given). */
export function attach(
  service: FilesService,
  docId: string,
  files: { id: string; sha256: string }[],
  allowDupl?: boolean,
): Promise<Response> {
  return call(service, pathOf(claimFilesRoute), {
    method: 'POST',
    headers: { ...authHeaders, 'content-type': 'application/json' },
    body: JSON.stringify({ docId, files, allowDupl }),
  });
}

/** `releaseClaimRoute`: the claim of a document never created is given up. */
export function release(service: FilesService, docId: string): Promise<Response> {
  return call(service, pathOf(releaseClaimRoute, { docId }), { method: 'DELETE', headers: authHeaders });
}

/** The JSON body of an answer, typed as the test expects it. */
export const json = async <T>(res: Response | Promise<Response>) => (await (await res).json()) as T;

/** Every event of the `file-` streams, read through a catch-up subscription up to a marker event. */
export async function fileEvents(store: EventStore): Promise<RecordedEvent[]> {
  const marker = `marker-${randomUUID()}`;
  await recordEvents(store, marker, [{ type: 'Marker', data: {} }], {
    correlationId: 'c',
    timestamp: new Date().toISOString(),
  });
  const seen: RecordedEvent[] = [];
  let reached!: () => void;
  const done = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const subscription = store.subscribeAll({ streamPrefixes: ['file-', marker] }, async (event) => {
    if (event.streamId === marker) reached();
    else seen.push(event);
  });
  try {
    await withTimeout(done, WAIT_MS, 'waiting for the marker event');
  } finally {
    await subscription.stop();
  }
  return seen;
}

/** Polls `condition` every 10 ms; fails after `WAIT_MS`. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const end = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A DocumentCreated event of the document service, as the bus delivers it, holding `files`. */
export function documentCreated(docId: string, files: { id: string; sha256: string }[]): EventEnvelope {
  return {
    id: randomUUID(),
    type: 'DocumentCreated',
    version: 1,
    streamId: `docForm-${docId}`,
    revision: 1,
    recordedAt: new Date().toISOString(),
    data: {
      id: docId,
      form: 'memo',
      formsystype: 1,
      author: 'usr-00000000-0000-4000-8000-000000000001',
      valuesByTags: {},
      tags: [],
      files: files.map((f) => ({ ...f, fileName: 'a.pdf', size: 1, contentType: 'application/pdf' })),
      datedue: '',
    },
    metadata: { correlationId: 'c', timestamp: new Date().toISOString() },
  };
}
