/** The DocForm aggregate: its state and `evolve`. Nothing here does I/O. */
import {
  type DocPhase,
  type DocStatus,
  type DocumentEvent,
  parseDocumentEvent,
  type StoredFile,
  type ValuesByTags,
} from '@docflow/contracts';
import type { Aggregate, EventContext } from '@docflow/kit';

export interface DocState {
  exists: boolean;
  id: string;
  form: string;
  formsystype: number;
  author: string;
  phase: DocPhase;
  status: DocStatus;
  step: number;
  iteration: number;
  valuesByTags: ValuesByTags;
  tags: string[];
  files: StoredFile[];
  created: string;
  datedue: string;
  lastModified: string;
  rev: number;
}

export const initialDoc: DocState = {
  exists: false,
  id: '',
  form: '',
  formsystype: 0,
  author: '',
  phase: 'registration',
  status: 'draft',
  step: 0,
  iteration: 0,
  valuesByTags: {},
  tags: [],
  files: [],
  created: '',
  datedue: '',
  lastModified: '',
  rev: 0,
};

function apply(state: DocState, event: DocumentEvent, at: string): DocState {
  switch (event.type) {
    case 'DocumentCreated': {
      const { id, form, formsystype, author, valuesByTags, tags, files, datedue } = event.data;
      return {
        ...state,
        exists: true,
        id,
        form,
        formsystype,
        author,
        valuesByTags,
        tags,
        files,
        datedue,
        created: at,
      };
    }
  }
}

export function evolveDoc(state: DocState, event: DocumentEvent, context: EventContext): DocState {
  const at = context.metadata.timestamp;
  return { ...apply(state, event, at), lastModified: at, rev: context.revision };
}

export const docAggregate: Aggregate<DocState, DocumentEvent> = {
  initial: initialDoc,
  evolve: evolveDoc,
  parse: parseDocumentEvent,
};
