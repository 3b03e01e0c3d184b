/** `GET /api/v2/docForm/view/{viewId}` and the admin command that rebuilds the view read model. */
import { ViewId, ViewQuery } from '@docflow/contracts';
import { parseWith, type ServiceEnv } from '@docflow/kit/http';
import { Hono } from 'hono';
import { toDocForm } from '../documents/representation';
import type { ViewsProjection } from './projection';
import type { ViewsReadModel } from './read-model';

export const TOTAL_COUNT_HEADER = 'svc-total-count';
/** `eq`, or `gte` when the total is a lower bound (a search with many matches, planner.ts). */
export const TOTAL_COUNT_RELATION_HEADER = 'svc-total-count-relation';

export function viewsApi(views: ViewsReadModel, projection: ViewsProjection): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  app.get('/api/v2/docForm/view/:viewId', (c) => {
    const view = parseWith('path', ViewId, c.req.param('viewId'));
    const query = parseWith('query', ViewQuery, c.req.query());
    const page = views.query(view, query, c.var.principal);
    c.header(TOTAL_COUNT_HEADER, String(page.total));
    c.header(TOTAL_COUNT_RELATION_HEADER, page.totalRelation);
    return c.json(page.docs.map(toDocForm));
  });
  app.post('/api/admin/v1/views/rebuild', async (c) => {
    const started = performance.now();
    let applied = 0;
    await projection.rebuild((n) => {
      applied = n;
    });
    return c.json({ applied, ms: Math.round(performance.now() - started) });
  });
  return app;
}
