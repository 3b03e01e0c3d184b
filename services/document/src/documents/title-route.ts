/**
 * A live document's title, folded from its own stream: what the workflow service's e-mail
 * notifications call the document (issue 36).
 */
import { docFormStream, documentTitleRoute } from '@docflow/contracts';
import { documentTitle } from '@docflow/document-model';
import type { EventStore } from '@docflow/eventstore';
import { loadAggregate } from '@docflow/kit/eventsourcing';
import { problems, type ServiceEnv, serveInternal } from '@docflow/kit/http';
import { Hono } from 'hono';
import { docAggregate } from './docForm';

export function documentTitleApi(store: EventStore): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  serveInternal(app, documentTitleRoute, async (_c, { params: { docId } }) => {
    const { state } = await loadAggregate(store, docFormStream(docId), docAggregate);
    if (!state.exists || state.status === 'deleted') throw problems.notFound('no such document');
    return { title: documentTitle(state) };
  });
  return app;
}
