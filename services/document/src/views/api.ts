/** `GET /api/v2/docForm/view/{viewId}` and the admin command that rebuilds the view read model. */
import { ViewId, ViewQuery } from '@docflow/contracts';
import { parseWith, type ServiceEnv } from '@docflow/kit/http';
import { Hono } from 'hono';
import { accountNames, type IdentityCalls } from '../calls/identity-calls';
import type { DocState } from '../documents/docForm';
import { namedAccounts } from '../documents/named-accounts';
import { toDocForm } from '../documents/representation';
import type { ViewsProjection } from './projection';
import type { ViewsReadModel } from './read-model';

export const TOTAL_COUNT_HEADER = 'svc-total-count';
/** `eq`, or `gte` when the total is a lower bound (a search with many matches, planner.ts). */
export const TOTAL_COUNT_RELATION_HEADER = 'svc-total-count-relation';

export function viewsApi(
  views: ViewsReadModel,
  projection: ViewsProjection,
  calls: IdentityCalls,
): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  app.get('/api/v2/docForm/view/:viewId', async (c) => {
    const view = parseWith('path', ViewId, c.req.param('viewId'));
    const query = parseWith('query', ViewQuery, c.req.query());
    const page = views.query(view, query, c.var.principal);
    c.header(TOTAL_COUNT_HEADER, String(page.total));
    c.header(TOTAL_COUNT_RELATION_HEADER, page.totalRelation);
    if (!query.embed?.includes('names')) return c.json(page.docs.map(toDocForm));
    // One identity call for the page; each document then names only the accounts it names itself.
    const named = new Map(page.docs.map((doc): [DocState, string[]] => [doc, namedAccounts(doc)]));
    const names = await accountNames(calls, { principal: c.var.principal, ids: c.var }, [
      ...new Set([...named.values()].flat()),
    ]);
    return c.json(
      page.docs.map((doc) => ({
        ...toDocForm(doc),
        names: Object.fromEntries(
          named.get(doc)!.flatMap((id) => (names.has(id) ? [[id, names.get(id)!]] : [])),
        ),
      })),
    );
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
