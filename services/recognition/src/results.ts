/**
 * The `recognition-<docId>` stream: one result (FileRecognized or FileRecognitionFailed) per file of
 * the document, and for a file recognised before recognition kept text, that text once it is read
 * again (FileTextRecognized, text-backfill.ts). Its events are the contract's `RecognitionEvent`s;
 * its state, the files whose result is recorded and those still without text. businessLogic.ts
 * decides what a result records.
 */
import { parseRecognitionEvent, type RecognitionEvent } from '@docflow/contracts';
import type { Aggregate } from '@docflow/kit/eventsourcing';

export interface RecognizedFile {
  pageCount: number;
  /** Where its page layouts are kept (absent for a file recognised before they were). */
  layouts?: { key: string; pages: number };
}

export interface RecognitionResults {
  /** The files whose result is recorded. */
  fileIds: string[];
  /** Files recognised before recognition kept text, whose text is not recorded yet. */
  textMissing: string[];
  /** The files recognised (not failed), by id. */
  recognized: Record<string, RecognizedFile>;
}

export const initialResults: RecognitionResults = { fileIds: [], textMissing: [], recognized: {} };

export function evolve(state: RecognitionResults, event: RecognitionEvent): RecognitionResults {
  const { fileId } = event.data;
  switch (event.type) {
    case 'FileTextRecognized':
      return { ...state, textMissing: state.textMissing.filter((f) => f !== fileId) };
    case 'FileRecognized':
      return {
        fileIds: [...state.fileIds, fileId],
        textMissing: event.data.text === undefined ? [...state.textMissing, fileId] : state.textMissing,
        recognized: {
          ...state.recognized,
          [fileId]: { pageCount: event.data.pageCount, layouts: event.data.layouts },
        },
      };
    case 'FileRecognitionFailed':
      return { ...state, fileIds: [...state.fileIds, fileId] };
  }
}

export const resultsAggregate: Aggregate<RecognitionResults, RecognitionEvent> = {
  initial: initialResults,
  evolve,
  parse: parseRecognitionEvent,
};
