/** Folding a document's recorded events, as the store holds them or as an export bundle lists them. */
import { type DocumentEvent, parseDocumentEvent } from '@docflow/contracts';
import { type DocEventContext, type DocState, evolveDoc } from './docForm';

/** One recorded event of a `docForm-<id>` stream, with what `evolveDoc` reads of its metadata. */
export interface RecordedDocEvent {
  revision: number;
  type: string;
  data: unknown;
  metadata: DocEventContext['metadata'];
}

/** The state after one more recorded event; undefined when the event no longer parses (altered), which changes nothing. */
export function evolveRecorded(state: DocState, event: RecordedDocEvent): DocState | undefined {
  let parsed: DocumentEvent;
  try {
    parsed = parseDocumentEvent(event.type, event.data);
  } catch {
    return undefined;
  }
  return evolveDoc(state, parsed, { revision: event.revision, metadata: event.metadata });
}
