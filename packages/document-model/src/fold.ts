/** Folding a document's recorded events, as the store holds them or as an export bundle lists them. */
import { type DocumentEvent, parseDocumentEvent } from '@docflow/contracts';
import { type Change, diffFields } from './changes';
import { type DocEventContext, type DocState, evolveDoc, initialDoc } from './docForm';
import { toDocForm, toRecoData } from './representation';

/** One recorded event of a `docForm-<id>` stream, with what `evolveDoc` reads of its metadata. */
export interface RecordedDocEvent {
  revision: number;
  type: string;
  data: unknown;
  metadata: DocEventContext['metadata'];
}

/** The state after one more recorded event; undefined when it no longer parses (altered). */
function evolveRecorded(state: DocState, event: RecordedDocEvent): DocState | undefined {
  let parsed: DocumentEvent;
  try {
    parsed = parseDocumentEvent(event.type, event.data);
  } catch {
    return undefined;
  }
  return evolveDoc(state, parsed, { revision: event.revision, metadata: event.metadata });
}

/** What a reader sees of the document, bar `_meta` (which every event changes). */
function visible(state: DocState): Record<string, unknown> {
  if (!state.exists) return {};
  const { _meta, ...doc } = toDocForm(state);
  return { ...doc, recoData: toRecoData(state) };
}

/**
 * Folds recorded events oldest first: the state after the last, and what each event changed in the
 * document as a reader sees it (GET plus recoData); an event that no longer parses changes nothing.
 */
export function foldWithChanges(events: readonly RecordedDocEvent[]): {
  state: DocState;
  changes: Change[][];
} {
  let state = initialDoc;
  const changes = events.map((e) => {
    const before = visible(state);
    const after = evolveRecorded(state, e);
    if (!after) return [];
    state = after;
    return diffFields(before, visible(state));
  });
  return { state, changes };
}
