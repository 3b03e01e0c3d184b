/**
 * The admin routes of the correction memory (behind the gateway, which checks `svcAdminSysRW`): read a
 * form's memory, forget one supplier of it.
 */
import { FormName, type RecognitionMemory, recognitionMemoryStream } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { commandMetadata, executeCommand, loadAggregate } from '@docflow/kit/eventsourcing';
import { parseWith, problems, type ServiceEnv } from '@docflow/kit/http';
import { Hono } from 'hono';
import { decideForget, memoryAggregate } from './memory';

const MEMORY_PATH = '/api/admin/v1/forms/:formName/recognition-memory';

export function memoryRoutes(store: EventStore): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  app.get(MEMORY_PATH, async (c) => {
    const form = parseWith('path', FormName, c.req.param('formName'));
    const { state } = await loadAggregate(store, recognitionMemoryStream(form), memoryAggregate);
    const body: RecognitionMemory = {
      form,
      suppliers: Object.entries(state).map(([supplier, places]) => ({ supplier, places })),
    };
    return c.json(body);
  });
  app.delete(`${MEMORY_PATH}/:supplier`, async (c) => {
    const form = parseWith('path', FormName, c.req.param('formName'));
    const supplier = c.req.param('supplier');
    const { state } = await loadAggregate(store, recognitionMemoryStream(form), memoryAggregate);
    if (!state[supplier]) throw problems.notFound(`recognition remembers no supplier ${supplier} on ${form}`);
    await executeCommand(
      store,
      recognitionMemoryStream(form),
      memoryAggregate,
      (memory) => decideForget(memory, supplier),
      commandMetadata(c.var.principal, c.var),
    );
    return c.body(null, 204);
  });
  return app;
}
