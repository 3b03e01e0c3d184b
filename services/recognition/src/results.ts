/**
 * The `recognition-<docId>` stream: one result (FileRecognized or FileRecognitionFailed) per file of
 * the document. Its events are the contract's `RecognitionEvent`s; its state, the files whose result
 * is recorded. businessLogic.ts decides what a result records.
 */
import { parseRecognitionEvent, type RecognitionEvent } from '@docflow/contracts';
import type { Aggregate } from '@docflow/kit/eventsourcing';

export interface RecognitionResults {
  /** The files whose result is recorded. */
  fileIds: string[];
}

export const initialResults: RecognitionResults = { fileIds: [] };

export function evolve(state: RecognitionResults, event: RecognitionEvent): RecognitionResults {
  return { fileIds: [...state.fileIds, event.data.fileId] };
}

export const resultsAggregate: Aggregate<RecognitionResults, RecognitionEvent> = {
  initial: initialResults,
  evolve,
  parse: parseRecognitionEvent,
};
