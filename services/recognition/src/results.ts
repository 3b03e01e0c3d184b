/**
 * The `recognition-<docId>` stream: one result (FileRecognized or FileRecognitionFailed) per file of
 * the document. A file's result is recorded once, whoever produces it (a redelivery, a job run twice
 * after a crash, another instance).
 */
import { parseRecognitionEvent, type RecognitionEvent } from '@docflow/contracts';
import type { Aggregate } from '@docflow/kit/eventsourcing';

export interface RecognitionResults {
  /** The files whose result is recorded. */
  fileIds: string[];
}

export const resultsAggregate: Aggregate<RecognitionResults, RecognitionEvent> = {
  initial: { fileIds: [] },
  evolve: (state, event) => ({ fileIds: [...state.fileIds, event.data.fileId] }),
  parse: parseRecognitionEvent,
};

/** Records `result` unless its file has one already. */
export function decideResult(state: RecognitionResults, result: RecognitionEvent): RecognitionEvent[] {
  return state.fileIds.includes(result.data.fileId) ? [] : [result];
}
