/** Step 8 of a create: `DocumentCreated` appended through the command path, decided on the stream as it is. */
import { docFormStream } from '@docflow/contracts';
import type { EventMetadata, EventStore } from '@docflow/eventstore';
import { executeCommand } from '@docflow/kit/eventsourcing';
import { type CreateDocument, decideCreate } from '../businessLogic';
import { type DocState, docAggregate } from '../docForm';

/** @example const doc = await appendCreated(store, command, commandMetadata(principal, ids, now)); */
export async function appendCreated(
  store: EventStore,
  command: CreateDocument,
  metadata: EventMetadata,
): Promise<DocState> {
  const created = await executeCommand(
    store,
    docFormStream(command.id),
    docAggregate,
    (state) => decideCreate(command, state),
    metadata,
  );
  return created.state;
}
