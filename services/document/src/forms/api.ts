/** Admin API of forms: PUT defines (or redefines) a form, GET reads it. */
import { FormDefinition, FormName, formStream } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { commandMetadata, executeCommand, loadAggregate } from '@docflow/kit/eventsourcing';
import { parseWith, problems, readJson, type ServiceEnv } from '@docflow/kit/http';
import { Hono } from 'hono';
import type { IdentityCalls } from '../calls/identity-calls';
import { withParticipantIds } from '../calls/participant-ids';
import { decideDefineForm, type FormState, formAggregate } from './form';

const toStoredForm = (s: FormState) => ({
  _meta: { _created: s.created, _lastmodified: s.lastModified, _rev: s.rev },
  ...s.definition,
});

export async function loadForm(store: EventStore, name: string) {
  const { state } = await loadAggregate(store, formStream(name), formAggregate);
  return state;
}

export function formsApi(store: EventStore, calls: IdentityCalls): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  app.put('/api/admin/v1/forms/:formName', async (c) => {
    const name = parseWith('path', FormName, c.req.param('formName'));
    const given = await readJson(c, FormDefinition);
    if (given.name !== name)
      throw problems.badRequest(`the body names the form ${given.name}, the path ${name}`);
    const definition = await withParticipantIds(calls, { principal: c.var.principal, ids: c.var }, given);
    const result = await executeCommand(
      store,
      formStream(name),
      formAggregate,
      (state) => decideDefineForm(definition, state),
      commandMetadata(c.var.principal, c.var),
    );
    const created = result.state.rev === 1 && result.events.length > 0;
    return c.json(toStoredForm(result.state), created ? 201 : 200);
  });
  app.get('/api/admin/v1/forms/:formName', async (c) => {
    const name = parseWith('path', FormName, c.req.param('formName'));
    const state = await loadForm(store, name);
    if (!state.definition) throw problems.notFound(`no form ${name}`);
    return c.json(toStoredForm(state));
  });
  return app;
}
