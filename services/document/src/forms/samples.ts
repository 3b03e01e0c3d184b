/** Defines the sample forms (DESIGN.md, "Forms") at start-up. */
import { randomUUID } from 'node:crypto';
import { formStream, SAMPLE_FORMS } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { commandMetadata, executeCommand } from '@docflow/kit/eventsourcing';
import { formAggregate } from './form';

/** Defines each sample form that does not exist yet; an existing form is left as it is. */
export async function seedSampleForms(store: EventStore): Promise<void> {
  const id = randomUUID();
  const metadata = commandMetadata(undefined, { requestId: id, correlationId: id });
  for (const definition of SAMPLE_FORMS) {
    await executeCommand(
      store,
      formStream(definition.name),
      formAggregate,
      (state) => (state.definition ? [] : [{ type: 'FormDefined', data: { definition } }]),
      metadata,
    );
  }
}
