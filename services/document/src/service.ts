/** Composition of the document service from its ports: used by the embedded runner and by main.ts. */
import type { Consumer, MessageHandler } from '@docflow/bus';
import { INTERNAL_PATHS, topicsOf } from '@docflow/contracts';
import type { Subscription } from '@docflow/eventstore';
import {
  createServiceApp,
  relayOwnStreams,
  type ServiceBaseDeps,
  type ServiceClient,
} from '@docflow/kit/http';
import type { Hono } from 'hono';
import { auditApi } from './audit/api';
import { type Checkpoints, startCheckpoints } from './audit/checkpoints';
import { sealingEventStore } from './audit/seal';
import { fetchAccountsPage } from './calls/identity-calls';
import { recognitionResultsHandler } from './consumers/recognition-consumer';
import { workflowFactsHandler } from './consumers/workflow-consumer';
import { documentsApi } from './documents/api';
import { pageReviewApi } from './documents/page-review';
import { documentPositionApi } from './documents/position';
import { docReader } from './documents/readable';
import { documentTitleApi } from './documents/title-route';
import { formsApi } from './forms/api';
import { createFormCatalog } from './forms/catalog';
import { seedSampleForms } from './forms/samples';
import { postgresIdempotencyStore } from './idempotency/postgres-store';
import { sqliteIdempotencyStore } from './idempotency/sqlite-store';
import { viewsApi } from './views/api';
import { createDeputiesReadModel } from './views/deputies';
import { liveAttachmentsApi } from './views/live-attachments';
import { pendingRecognitionApi } from './views/pending-recognition';
import { createViewsProjection, type ViewsProjection } from './views/projection';
import { createViewsReadModel } from './views/read-model';

export interface DocumentServiceDeps extends ServiceBaseDeps {
  identity: ServiceClient;
  files: ServiceClient;
  workflow: ServiceClient;
  /** The recognition service: a recognised page's layout and image, for a caller who may read the file. */
  recognition: ServiceClient;
  /** Largest create request, every file together; a larger one is refused with 413 and keeps nothing. */
  maxCreateBytes: number;
  /** How often an audit checkpoint is taken (ms); 0 or absent: never. */
  checkpointIntervalMs?: number;
  /** DOCFLOW_SEARCH_COMMON_DOCS (config.ts); absent: COMMON_TERM_DOCS. */
  searchCommonDocs?: number;
  /**
   * This process among the service's processes (DOCUMENT_INSTANCE_ID): the deputies read model is
   * whole in each, so each feeds it through a consumer group of its own.
   */
  instanceId: string;
}

export interface DocumentService {
  app: Hono;
  views: ViewsProjection;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createDocumentService(deps: DocumentServiceDeps): DocumentService {
  const { bus, db, log } = deps;
  // Every append to a `docForm-` stream is sealed into its audit chain here, whoever makes it.
  const store = sealingEventStore(deps.store);
  const deputies = createDeputiesReadModel(db);
  const views = createViewsReadModel(db, deputies, deps.searchCommonDocs);
  const projection = createViewsProjection(store, db, views, log);
  const clients = { identity: deps.identity, files: deps.files, workflow: deps.workflow };
  const formCatalog = createFormCatalog(store, db, log);
  // The internal routes answer documents' facts: only to a caller with the internal token.
  const app = createServiceApp(deps, { guarded: ['/api/*', INTERNAL_PATHS] });
  app.route(
    '/',
    formsApi(store, { identity: deps.identity, internalToken: deps.internalToken }, formCatalog),
  );
  app.route('/', viewsApi(views, projection, { identity: deps.identity, internalToken: deps.internalToken }));
  app.route('/', liveAttachmentsApi(db, views, projection));
  app.route('/', pendingRecognitionApi(store, db, views, projection));
  app.route('/', documentPositionApi(store));
  app.route('/', documentTitleApi(store));
  const reader = docReader(store, deputies);
  app.route('/', pageReviewApi({ recognition: deps.recognition, internalToken: deps.internalToken, reader }));
  app.route(
    '/',
    auditApi({
      store,
      files: deps.files,
      identity: deps.identity,
      internalToken: deps.internalToken,
      reader,
    }),
  );
  app.route(
    '/',
    documentsApi({
      store,
      ...clients,
      internalToken: deps.internalToken,
      maxCreateBytes: deps.maxCreateBytes,
      reader,
      idempotency: deps.sharedSql ? postgresIdempotencyStore(deps.sharedSql) : sqliteIdempotencyStore(db),
    }),
  );

  const topics = topicsOf(deps.namespace);
  const subscriptions: Record<string, { topic: string; handler: MessageHandler }> = {
    'document-workflow': { topic: topics.workflow, handler: workflowFactsHandler(store) },
    [`document-deputies-${deps.instanceId}`]: {
      topic: topics.identity,
      handler: (message) => deputies.handle(message),
    },
    'document-recognition': { topic: topics.recognition, handler: recognitionResultsHandler(store) },
  };
  let relay: Subscription | undefined;
  let checkpoints: Checkpoints | undefined;
  const consumers = new Map<string, Consumer>();
  return {
    app,
    views: projection,
    async start() {
      // A retried start (runService) keeps what an earlier attempt started and redoes what failed.
      await seedSampleForms(store);
      projection.start();
      formCatalog.start();
      relay ??= relayOwnStreams('document', deps, {
        prefixes: ['docForm-', 'form-'],
        topic: topics.document,
      });
      if (deps.checkpointIntervalMs)
        checkpoints ??= startCheckpoints(store, db, log, deps.checkpointIntervalMs, deps.serviceLease);
      // Before the bus: a lost table is filled from identity's streams, the bus then brings what is newer.
      await deputies.rebuild((first) =>
        fetchAccountsPage({ identity: deps.identity, internalToken: deps.internalToken }, first),
      );
      const joining = Object.entries(subscriptions)
        .filter(([name]) => !consumers.has(name))
        .map(async ([name, { topic, handler }]) => {
          const groupId = `${deps.namespace}.${name}`;
          consumers.set(name, await bus.subscribe({ groupId, topics: [topic] }, handler));
        });
      // Every join settles before a failure is reported, so a retry never races one still under way.
      const failed = (await Promise.allSettled(joining)).find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
    async stop() {
      await relay?.stop();
      await checkpoints?.stop();
      await formCatalog.stop();
      await Promise.all([...consumers.values()].map((c) => c.stop()));
      await projection.stop();
    },
  };
}
