/** Composition of the files service from its ports: used by the embedded runner and by main.ts. */
import type { BlobStore } from '@docflow/blobstore';
import type { Consumer } from '@docflow/bus';
import { topicsOf } from '@docflow/contracts';
import type { Subscription } from '@docflow/eventstore';
import { createServiceApp, relayOwnStreams, type ServiceBaseDeps } from '@docflow/kit';
import type { Hono } from 'hono';
import { filesApi } from './api';
import { createAttachmentIndex } from './attachment-index';
import { documentEventsHandler } from './document-consumer';

const FILE_STREAM_PREFIX = 'file-';

export interface FilesServiceDeps extends ServiceBaseDeps {
  blobs: BlobStore;
  /** Largest accepted upload in bytes; a larger one is refused with 413 and stores nothing. */
  maxUploadBytes: number;
}

export interface FilesService {
  app: Hono;
  /** Starts the relay of `file-` events and the consumer of document events. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createFilesService(deps: FilesServiceDeps): FilesService {
  const { store, blobs, bus, db } = deps;
  const topics = topicsOf(deps.namespace);
  const index = createAttachmentIndex(db);
  const app = createServiceApp(deps, {
    guarded: ['/internal/*'],
    readiness: { blobStore: () => blobs.ping() },
  });
  app.route('/', filesApi({ store, blobs, index, maxUploadBytes: deps.maxUploadBytes }));

  let relay: Subscription | undefined;
  let consumer: Consumer | undefined;
  return {
    app,
    async start() {
      relay = relayOwnStreams('files', deps, { prefixes: [FILE_STREAM_PREFIX], topic: topics.files });
      consumer = await bus.subscribe(
        { groupId: `${deps.namespace}.files`, topics: [topics.document], fromBeginning: true },
        documentEventsHandler(db, index),
      );
    },
    async stop() {
      await consumer?.stop();
      await relay?.stop();
    },
  };
}
