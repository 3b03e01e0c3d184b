/**
 * Forms: the admin API defines (PUT), reads (GET) and lists them; `GET /api/v2/forms` lists what any
 * principal may create documents of (every form, without its workflow and recognition rules).
 */
import { FormDefinition, FormName, formStream } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { commandMetadata, executeCommand, loadAggregate } from '@docflow/kit/eventsourcing';
import { parseWith, problems, readJson, type ServiceEnv } from '@docflow/kit/http';
import { type Context, Hono } from 'hono';
import type { IdentityCalls } from '../calls/identity-calls';
import { withKnownParticipants } from '../calls/participant-ids';
import type { FormCatalog } from './catalog';
import { decideDefineForm, type FormState, formAggregate } from './form';

/** How long a listing waits for the catalog to hold every form defined before it. */
const LIST_CATCH_UP_MS = 5_000;

const toStoredForm = (s: FormState) => ({
  _meta: { _created: s.created, _lastmodified: s.lastModified, _rev: s.rev },
  ...s.definition,
});

export async function loadForm(store: EventStore, name: string) {
  const { state } = await loadAggregate(store, formStream(name), formAggregate);
  return state;
}

export function formsApi(store: EventStore, calls: IdentityCalls, catalog: FormCatalog): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();

  /** Every defined form as it is now, by name. */
  async function everyForm(c: Context<ServiceEnv>) {
    if (!(await catalog.caughtUp(LIST_CATCH_UP_MS)))
      c.var.log.warn('form catalog lags behind the event store');
    const states = await Promise.all(catalog.names().map((name) => loadForm(store, name)));
    return states.filter((s) => s.definition !== null);
  }

  app.put('/api/admin/v1/forms/:formName', async (c) => {
    const name = parseWith('path', FormName, c.req.param('formName'));
    const given = await readJson(c, FormDefinition);
    if (given.name !== name)
      throw problems.badRequest(`the body names the form ${given.name}, the path ${name}`);
    const definition = await withKnownParticipants(calls, { principal: c.var.principal, ids: c.var }, given);
    const result = await executeCommand(
      store,
      formStream(name),
      formAggregate,
      (state) => decideDefineForm(definition, state),
      commandMetadata(c.var.principal, c.var),
    );
    catalog.add(name);
    const created = result.state.rev === 1 && result.events.length > 0;
    return c.json(toStoredForm(result.state), created ? 201 : 200);
  });
  app.get('/api/admin/v1/forms', async (c) => c.json((await everyForm(c)).map(toStoredForm)));
  app.get('/api/admin/v1/forms/:formName', async (c) => {
    const name = parseWith('path', FormName, c.req.param('formName'));
    const state = await loadForm(store, name);
    if (!state.definition) throw problems.notFound(`no form ${name}`);
    return c.json(toStoredForm(state));
  });
  app.get('/api/v2/forms', async (c) =>
    c.json(
      (await everyForm(c)).map(({ definition }) => {
        const { name, title, formsystype, tags } = definition!;
        return { name, title, formsystype, tags };
      }),
    ),
  );
  return app;
}
