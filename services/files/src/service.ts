/** Composition of the files service from its ports: used by the embedded runner and by main.ts. */
import type { BlobStore } from '@docflow/blobstore';
import type { Consumer } from '@docflow/bus';
import { INTERNAL_PATHS, topicsOf } from '@docflow/contracts';
import type { Subscription } from '@docflow/eventstore';
import { createKeyedLock } from '@docflow/kit';
import {
  createServiceApp,
  relayOwnStreams,
  type ServiceBaseDeps,
  type ServiceClient,
} from '@docflow/kit/http';
import { startWithRetry } from '@docflow/kit/runner';
import type { Hono } from 'hono';
import { filesApi } from './api';
import { createAttachmentIndex } from './attachment-index';
import { createBlobHolders } from './blob-holders';
import { fileDiscarder } from './discard';
import { documentEventsHandler } from './document-consumer';
import { liveAttachmentsFromDocument } from './live-attachments';
import { createOrphanSweeper, type SweepReport } from './orphan-sweeper';
import { createStoredFilesTable } from './stored-files';
import { createStoredFilesProjection } from './stored-files-projection';

const FILE_STREAM_PREFIX = 'file-';
/** The document service may start after this one (it answers 503 while its views catch up). */
const REBUILD_BACKOFF = { initialMs: 100, maxMs: 5000, random: Math.random };

export interface FilesServiceDeps extends ServiceBaseDeps {
  blobs: BlobStore;
  /** Largest accepted upload in bytes; a larger one is refused with 413 and stores nothing. */
  maxUploadBytes: number;
  /** A file no document holds is discarded this long after its upload ended (DOCFLOW_UPLOAD_GRACE_SECONDS). */
  uploadGraceSeconds: number;
  /** How often the orphan sweeper runs (DOCFLOW_ORPHAN_SWEEP_SECONDS). */
  orphanSweepSeconds: number;
  /**
   * Names this instance's consumer group of document events. Every instance needs the whole
   * attachment index (allowDupl=false and the orphan sweeper's keep list), so each is its own group.
   */
  instanceId: string;
  /** The document service: the attachment index is rebuilt from its live documents when new or lost. */
  document: ServiceClient;
}

export interface FilesService {
  app: Hono;
  /** Starts the relay of `file-` events, the consumer of document events and the orphan sweeper. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** One pass of the orphan sweeper now, with the grace period counted back from `now` (ms). */
  sweepOrphans(now?: number): Promise<SweepReport>;
}

export function createFilesService(deps: FilesServiceDeps): FilesService {
  const { store, blobs, bus, db, log } = deps;
  const topics = topicsOf(deps.namespace);
  const index = createAttachmentIndex(db);
  const table = createStoredFilesTable(db);
  const projection = createStoredFilesProjection(store, db, table, log);
  const holders = createBlobHolders({ blobs, locks: createKeyedLock(), table, projection });
  const discard = fileDiscarder({ store, index, holders });
  const sweeper = createOrphanSweeper({
    table,
    index,
    discard,
    holders,
    graceMs: deps.uploadGraceSeconds * 1000,
    intervalMs: deps.orphanSweepSeconds * 1000,
    log,
  });
  const app = createServiceApp(deps, {
    guarded: [INTERNAL_PATHS],
    readiness: {
      blobStore: () => blobs.ping(),
      // Until then allowDupl=false could miss a document created before the index was lost.
      attachmentIndex: async () => {
        if (!index.rebuilt()) throw new Error('the attachment index is not rebuilt yet');
      },
    },
  });
  app.route('/', filesApi({ store, blobs, index, holders, discard, maxUploadBytes: deps.maxUploadBytes }));

  let relay: Subscription | undefined;
  let consumer: Consumer | undefined;
  const stopping = new AbortController();
  let rebuilding: Promise<boolean> | undefined;
  return {
    app,
    async start() {
      // A retried start (runService) keeps what an earlier attempt started; the sweeper comes last.
      await projection.start();
      relay ??= relayOwnStreams('files', deps, { prefixes: [FILE_STREAM_PREFIX], topic: topics.files });
      consumer ??= await bus.subscribe(
        {
          groupId: `${deps.namespace}.files-${deps.instanceId}`,
          topics: [topics.document],
          fromBeginning: true,
        },
        documentEventsHandler(db, index),
      );
      // In the background: the document service may start after this one.
      const fetchPage = liveAttachmentsFromDocument(deps.document, deps.internalToken);
      rebuilding ??= startWithRetry(() => index.rebuild(fetchPage), {
        signal: stopping.signal,
        backoff: REBUILD_BACKOFF,
        onFailure: (err, attempt, retryInMs) =>
          log.info(
            { err, attempt, retryInMs },
            'attachment index: rebuild from the document service failed, retrying',
          ),
      });
      sweeper.start();
    },
    async stop() {
      stopping.abort();
      await rebuilding;
      await sweeper.stop();
      await consumer?.stop();
      await relay?.stop();
      await projection.stop();
    },
    sweepOrphans: (now) => sweeper.run(now),
  };
}
