/**
 * What a failed create leaves: nothing, unless its append may have written the document — then its
 * files stay attached, kept and logged (docs/decisions.md, "Creates are all-or-nothing for files").
 */
import { docFormStream } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import type { Logger } from '@docflow/kit';
import { loadAggregate } from '@docflow/kit/eventsourcing';
import { docAggregate } from '../docForm';
import { appendWroteNothing, type CreateFiles } from './create-files';

export interface FailedCreate {
  docId: string;
  /** Whether the append of DocumentCreated had begun when `err` was thrown. */
  appending: boolean;
  files: Pick<CreateFiles, 'giveUp'>;
  log: Logger;
}

/** @example catch (err) { await settleFailedCreate(store, err, { docId, appending, files, log }); throw err; } */
export async function settleFailedCreate(
  store: EventStore,
  err: unknown,
  failed: FailedCreate,
): Promise<void> {
  const exists = async () =>
    (await loadAggregate(store, docFormStream(failed.docId), docAggregate)).state.exists;
  if (!failed.appending || (await appendWroteNothing(err, exists))) await failed.files.giveUp();
  else
    failed.log.warn(
      { docId: failed.docId },
      'a create append failed and may have been written; its files stay',
    );
}
