/**
 * The live documents whose recognition waits (a file without a recorded result), from the view read
 * model, a page at a time by document id, each with its `DocumentCreated` as the bus carries it: what
 * the recognition service queues its jobs again from when its queue is new or lost.
 */
import { docFormStream, pendingRecognitionRoute } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { type LocalDb, toEnvelope } from '@docflow/kit/eventsourcing';
import { problems, type ServiceEnv, serveInternal } from '@docflow/kit/http';
import { Hono } from 'hono';
import type { ViewsProjection } from './projection';
import type { ViewsReadModel } from './read-model';

/** How long a page waits for the views to catch up; views behind answer 503 (the caller retries). */
const CATCH_UP_MS = 5000;

export function pendingRecognitionApi(
  store: EventStore,
  db: LocalDb,
  views: ViewsReadModel,
  projection: ViewsProjection,
): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  // A walk by primary key; only documents with a pending file are answered.
  const page = db
    .prepare<[string, number], string>(
      `SELECT id FROM view_docs WHERE id > ? AND json_array_length(doc, '$.recoPending') > 0
       ORDER BY id LIMIT ?`,
    )
    .pluck();
  serveInternal(app, pendingRecognitionRoute, async (_c, { query: { after, pageSize } }) => {
    if (!(await projection.caughtUp(CATCH_UP_MS))) throw problems.unavailable('the views are catching up');
    const ids = page.all(after ?? '', pageSize);
    const documents = [];
    for (const id of ids) {
      const [created] = await store.readStream(docFormStream(id), { fromRevision: 1, maxCount: 1 });
      if (created)
        documents.push({ created: toEnvelope(created), pending: views.get(id)?.recoPending ?? [] });
    }
    return { documents, next: ids.length === pageSize ? ids.at(-1)! : null };
  });
  return app;
}
