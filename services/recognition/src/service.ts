/** Composition of the recognition service: used by the embedded runner and by main.ts. */
import type { Consumer } from '@docflow/bus';
import { topicsOf } from '@docflow/contracts';
import type { Subscription } from '@docflow/eventstore';
import {
  createServiceApp,
  relayOwnStreams,
  type ServiceBaseDeps,
  type ServiceClient,
} from '@docflow/kit/http';
import type { Hono } from 'hono';
import { documentCreatedHandler } from './jobs';
import { instrumentOcrPool } from './ocr-metrics';
import { createOcrPool, type OcrPool } from './ocr-pool';
import { traceOcrPool } from './ocr-tracing';

export interface RecognitionServiceDeps extends ServiceBaseDeps {
  files: ServiceClient;
  /** Tesseract workers (default: the number of cores). */
  ocrWorkers?: number;
}

export interface RecognitionService {
  app: Hono;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createRecognitionService(deps: RecognitionServiceDeps): RecognitionService {
  const { store, bus, log } = deps;
  // Workers take seconds to start and warm up, and most starts never need them: start them on first use.
  let pool: Promise<OcrPool> | undefined;
  const lazyPool = () => {
    pool ??= createOcrPool({ size: deps.ocrWorkers }).then(instrumentOcrPool).then(traceOcrPool);
    return pool;
  };
  const app = createServiceApp(deps, { guarded: ['/internal/*'] });
  let relay: Subscription | undefined;
  let consumer: Consumer | undefined;
  return {
    app,
    async start() {
      const topics = topicsOf(deps.namespace);
      // A retried start (runService) keeps what an earlier attempt started.
      relay ??= relayOwnStreams('recognition', deps, {
        prefixes: ['recognition-'],
        topic: topics.recognition,
      });
      // Every recognition instance joins one group: they share the documents' work.
      consumer ??= await bus.subscribe(
        { groupId: `${deps.namespace}.recognition`, topics: [topics.document] },
        documentCreatedHandler({
          store,
          files: deps.files,
          internalToken: deps.internalToken,
          pool: lazyPool,
          log,
        }),
      );
    },
    async stop() {
      await consumer?.stop();
      await relay?.stop();
      await (await pool)?.terminate();
    },
  };
}
