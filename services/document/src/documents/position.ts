/**
 * A document's form and workflow position at a revision, folded from its own stream (a deleted
 * document's too): where the webhooks service's mapping starts for a document it does not remember.
 */
import { docFormStream, documentPositionRoute } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { loadAggregate } from '@docflow/kit/eventsourcing';
import { problems, type ServiceEnv, serveInternal } from '@docflow/kit/http';
import { Hono } from 'hono';
import { docAggregate } from './docForm';

export function documentPositionApi(store: EventStore): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  serveInternal(app, documentPositionRoute, async (_c, { params: { docId }, query: { rev } }) => {
    const { state, revision } = await loadAggregate(store, docFormStream(docId), docAggregate, rev);
    if (!state.exists || revision < rev) throw problems.notFound(`the document has no revision ${rev}`);
    const { form, phase, status, step, iteration } = state;
    return { form, phase, status, step, iteration };
  });
  return app;
}
