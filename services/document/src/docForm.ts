/** The DocForm aggregate: its state and `evolve`. Nothing here does I/O. */
import {
  type DocPhase,
  type DocStatus,
  type DocumentEvent,
  parseDocumentEvent,
  parseWorkflowEvent,
  type StoredFile,
  type ValuesByTags,
} from '@docflow/contracts';
import type { Aggregate, EventContext } from '@docflow/kit';
import { foldWorkflow, initialWorkflow, type WorkflowConfig, type WorkflowState } from '@docflow/workflow';

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
  /** The form's workflow configuration at creation; undefined when the form has none. */
  workflowConfig?: WorkflowConfig;
  /** The workflow as its recorded facts tell it (registered once a workflow command ran). */
  workflow: WorkflowState;
  /** Workflow event ids already recorded, so that no fact is recorded twice. */
  workflowSourceIds: string[];
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
  workflow: initialWorkflow,
  workflowSourceIds: [],
  lastModified: '',
  rev: 0,
};

function apply(state: DocState, event: DocumentEvent, at: string): DocState {
  switch (event.type) {
    case 'DocumentCreated': {
      const { id, form, formsystype, author, valuesByTags, tags, files, datedue, workflow } = event.data;
      return {
        ...state,
        exists: true,
        ...{ id, form, formsystype, author, valuesByTags, tags, files, datedue },
        workflowConfig: workflow,
        created: at,
      };
    }
    case 'DocumentFieldsUpdated':
      return { ...state, valuesByTags: event.data.valuesByTags, tags: event.data.tags };
    case 'WorkflowChanged': {
      const facts = event.data.events.map((e) => parseWorkflowEvent(e.type, e.data));
      const workflow = foldWorkflow(facts, state.workflow);
      return {
        ...state,
        workflow,
        phase: workflow.phase,
        status: workflow.status,
        step: workflow.step,
        iteration: workflow.iteration,
        workflowSourceIds: [...state.workflowSourceIds, ...event.data.sourceIds],
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
