/**
 * The recognised parts of one document as its `recognition-<docId>` stream holds them, by `_id`, and
 * the form they were read for: what a correction is compared with.
 */
import { parseRecognitionEvent, type RecognitionEvent, type RecognizedPart } from '@docflow/contracts';
import type { Aggregate } from '@docflow/kit/eventsourcing';

export interface RecognizedParts {
  /** Absent for files recognised before the form was recorded with them. */
  form?: string;
  parts: Readonly<Record<string, RecognizedPart>>;
}

export const recognizedPartsAggregate: Aggregate<RecognizedParts, RecognitionEvent> = {
  initial: { parts: {} },
  evolve(state, event) {
    if (event.type !== 'FileRecognized') return state;
    const parts = { ...state.parts };
    for (const part of event.data.parts) parts[part._id] = part;
    return { form: event.data.form ?? state.form, parts };
  },
  parse: parseRecognitionEvent,
};
