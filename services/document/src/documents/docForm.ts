/**
 * The DocForm aggregate: the state and `evolve` of @docflow/document-model. Its events are sealed into
 * the audit chain by the document service's event store (audit/seal.ts).
 */
import { type DocumentEvent, parseDocumentEvent } from '@docflow/contracts';
import { type DocState, evolveDoc, initialDoc } from '@docflow/document-model';
import type { Aggregate } from '@docflow/kit/eventsourcing';

export { type DocState, initialDoc } from '@docflow/document-model';

export const docAggregate: Aggregate<DocState, DocumentEvent> = {
  initial: initialDoc,
  evolve: evolveDoc,
  parse: parseDocumentEvent,
};
