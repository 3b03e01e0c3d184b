/** The DocForm aggregate: the state and `evolve` of @docflow/document-model, sealed into the audit chain. */
import { type DocumentEvent, parseDocumentEvent } from '@docflow/contracts';
import { type DocState, evolveDoc, initialDoc } from '@docflow/document-model';
import type { Aggregate } from '@docflow/kit/eventsourcing';
import { sealDocEvent } from './audit/seal';

export { type DocState, initialDoc } from '@docflow/document-model';

export const docAggregate: Aggregate<DocState, DocumentEvent> = {
  initial: initialDoc,
  evolve: evolveDoc,
  parse: parseDocumentEvent,
  seal: sealDocEvent,
};
