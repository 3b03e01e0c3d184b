/** Composition of the document service from its ports: used by the embedded runner and by main.ts. */
import type { Consumer } from '@docflow/bus';
import { topicsOf } from '@docflow/contracts';
import type { Subscription } from '@docflow/eventstore';
import { createServiceApp, relayOwnStreams, type ServiceBaseDeps, type ServiceClient } from '@docflow/kit';
import type { Hono } from 'hono';
import { documentsApi } from './documents-api';
import { formsApi } from './forms/api';
import { seedSampleForms } from './forms/samples';
import { recognitionResultsHandler } from './recognition-consumer';
import { viewsApi } from './views/api';
import { createDeputiesReadModel } from './views/deputies';
import { createViewsProjection, type ViewsProjection } from './views/projection';
import { createViewsReadModel } from './views/read-model';
import { workflowFactsHandler } from './workflow-consumer';

export interface DocumentServiceDeps extends ServiceBaseDeps {
  identity: ServiceClient;
  files: ServiceClient;
  workflow: ServiceClient;
  /** Largest create request, every file together; a larger one is refused with 413 and keeps nothing. */
  maxCreateBytes: number;
}

export interface DocumentService {
  app: Hono;
  views: ViewsProjection;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createDocumentService(deps: DocumentServiceDeps): DocumentService {
  const { store, bus, db, log } = deps;
  const views = createViewsReadModel(db);
  const deputies = createDeputiesReadModel(db);
  const projection = createViewsProjection(store, db, views, log);
  const clients = { identity: deps.identity, files: deps.files, workflow: deps.workflow };
  const app = createServiceApp(deps);
  app.route('/', formsApi(store));
  app.route('/', viewsApi(views, projection));
  app.route(
    '/',
    documentsApi({
      store,
      ...clients,
      internalToken: deps.internalToken,
      maxCreateBytes: deps.maxCreateBytes,
    }),
  );

  let relay: Subscription | undefined;
  let consumers: Consumer[] = [];
  return {
    app,
    views: projection,
    async start() {
      await seedSampleForms(store);
      projection.start();
      relay = relayOwnStreams('document', deps, {
        prefixes: ['docForm-', 'form-'],
        topic: topicsOf(deps.namespace).document,
      });
      const topics = topicsOf(deps.namespace);
      consumers = await Promise.all([
        bus.subscribe(
          { groupId: `${deps.namespace}.document-workflow`, topics: [topics.workflow] },
          workflowFactsHandler(store),
        ),
        bus.subscribe(
          { groupId: `${deps.namespace}.document-deputies`, topics: [topics.identity] },
          (message) => deputies.handle(message),
        ),
        bus.subscribe(
          { groupId: `${deps.namespace}.document-recognition`, topics: [topics.recognition] },
          recognitionResultsHandler(store),
        ),
      ]);
    },
    async stop() {
      await relay?.stop();
      await Promise.all(consumers.map((c) => c.stop()));
      await projection.stop();
    },
  };
}
