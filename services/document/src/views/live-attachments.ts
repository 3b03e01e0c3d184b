/**
 * The live documents' files from the view read model, a page at a time by document id: what the files
 * service rebuilds its attachment index from. A deleted document has left the views, so it holds none.
 */
import { liveAttachmentsRoute } from '@docflow/contracts';
import type { LocalDb } from '@docflow/kit/eventsourcing';
import { problems, type ServiceEnv, serveInternal } from '@docflow/kit/http';
import { Hono } from 'hono';
import type { ViewsProjection } from './projection';
import type { ViewsReadModel } from './read-model';

/** How long a page waits for the views to catch up; views behind answer 503 (the caller retries). */
const CATCH_UP_MS = 5000;

export function liveAttachmentsApi(
  db: LocalDb,
  views: ViewsReadModel,
  projection: ViewsProjection,
): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  const page = db
    .prepare<[string, number], string>('SELECT id FROM view_docs WHERE id > ? ORDER BY id LIMIT ?')
    .pluck();
  serveInternal(app, liveAttachmentsRoute, async (_c, { query: { after, pageSize } }) => {
    // A page of views behind the store could leave a document out of the rebuild: no answer instead.
    if (!(await projection.caughtUp(CATCH_UP_MS))) throw problems.unavailable('the views are catching up');
    const ids = page.all(after ?? '', pageSize);
    const documents = ids.map((id) => ({
      id,
      files: (views.get(id)?.files ?? []).map((file) => ({ id: file.id, sha256: file.sha256 })),
    }));
    return { documents, next: ids.length === pageSize ? ids.at(-1)! : null };
  });
  return app;
}
