/**
 * The recognised parts of one document as its `recognition-<docId>` stream holds them, by `_id`, the
 * form they were read for, and where each part's file's page layouts are kept: what a correction is
 * compared with.
 */
import { parseRecognitionEvent, type RecognitionEvent, type RecognizedPart } from '@docflow/contracts';
import type { Aggregate } from '@docflow/kit/eventsourcing';

export interface RecognizedParts {
  /** Absent for files recognised before the form was recorded with them. */
  form?: string;
  parts: Readonly<Record<string, RecognizedPart>>;
  /** The blob key of the page layouts of each part's file, by part `_id` (absent: none were kept). */
  layouts: Readonly<Record<string, string>>;
}

export const recognizedPartsAggregate: Aggregate<RecognizedParts, RecognitionEvent> = {
  initial: { parts: {}, layouts: {} },
  evolve(state, event) {
    if (event.type !== 'FileRecognized') return state;
    const parts = { ...state.parts };
    const layouts = { ...state.layouts };
    for (const part of event.data.parts) {
      parts[part._id] = part;
      if (event.data.layouts) layouts[part._id] = event.data.layouts.key;
    }
    return { form: event.data.form ?? state.form, parts, layouts };
  },
  parse: parseRecognitionEvent,
};
