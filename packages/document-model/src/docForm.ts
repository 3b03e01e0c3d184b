/**
 * The DocForm's state and `evolve`, folded from a `docForm-<id>` stream's events: shared by the document
 * service (which appends and reads them) and the offline verifier (which re-folds a bundle's history).
 * Nothing here does I/O.
 */
import {
  type DocPhase,
  type DocStatus,
  type DocumentEvent,
  parseWorkflowEvent,
  type RecognizedPart,
  type RecoValidatedBy,
  type StoredFile,
  type TagValue,
  type ValuesByTags,
  type WorkflowConfig,
} from '@docflow/contracts';
import { foldWorkflow, initialWorkflow, type WorkflowState } from '@docflow/workflow-model';
import { type RecoValidationPolicy, recoValidationPolicy } from './reco-policy';

export interface RecoEntry extends RecognizedPart {
  fileId: string;
  validated: boolean;
  /** Who validated it (absent while not validated, and when validated before issue 34: by a person). */
  validatedBy?: RecoValidatedBy;
  /** Who was asked to validate it (its validation task; absent when none was opened). */
  validators?: string[];
  /** The threshold its values were judged against when it was recorded (absent: the form set none). */
  autoValidateAt?: number;
}

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
  /** The form's title and title field at creation; undefined in a document created before titles. */
  title?: { formTitle: string; field?: string };
  /** The form's workflow configuration at creation; undefined when the form has none. */
  workflowConfig?: WorkflowConfig;
  /** The workflow as its recorded facts tell it (registered once a workflow command ran). */
  workflow: WorkflowState;
  /** Workflow event ids already recorded, so that no fact is recorded twice. */
  workflowSourceIds: string[];
  /** The form's rule for validating recognised parts (absent: the form recognises nothing). */
  recoValidation?: RecoValidationPolicy;
  /** Recognised parts of the attachments (recoData), in the order they were recorded. */
  recoData: RecoEntry[];
  /** Attachments whose recognition has not been recorded yet. */
  recoPending: string[];
  /** Attachments that could not be recognised. */
  recoFailed: string[];
  /** Recognition event ids already recorded. */
  recoSourceIds: string[];
  /** The recognised text of each recognised attachment, as recorded (searched by the views). */
  recoText: string[];
  /** Attachments recognised before recognition kept text: the text backfill reads them again. */
  recoTextMissing: string[];
  /** The comment thread, oldest first. */
  comments: Array<{ id: string; author: string; text: string; at: string }>;
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
  recoData: [],
  recoPending: [],
  recoFailed: [],
  recoSourceIds: [],
  recoText: [],
  recoTextMissing: [],
  comments: [],
  lastModified: '',
  rev: 0,
};

function apply(state: DocState, event: DocumentEvent, at: string): DocState {
  switch (event.type) {
    case 'DocumentCreated': {
      const {
        id,
        form,
        formsystype,
        author,
        valuesByTags,
        tags,
        files,
        datedue,
        title,
        workflow,
        recognition,
      } = event.data;
      return {
        ...state,
        exists: true,
        ...{ id, form, formsystype, author, valuesByTags, tags, files, datedue, title },
        workflowConfig: workflow,
        recoValidation: recoValidationPolicy(recognition?.form, author),
        recoPending: recognition ? files.map((f) => f.id) : [],
        created: at,
      };
    }
    case 'RecognitionRecorded': {
      const { fileId, parts, sourceId, text } = event.data;
      return {
        ...state,
        recoText: text ? [...state.recoText, text] : state.recoText,
        recoTextMissing: text !== undefined ? state.recoTextMissing : [...state.recoTextMissing, fileId],
        recoData: [...state.recoData, ...parts.map((p) => recoEntry(p, fileId, state.recoValidation))],
        valuesByTags: fillEmpty(
          state.valuesByTags,
          parts.map((p) => p.valuesByTags),
        ),
        recoPending: state.recoPending.filter((f) => f !== fileId),
        recoSourceIds: [...state.recoSourceIds, sourceId],
      };
    }
    case 'RecognitionTextRecorded': {
      const { fileId, text, sourceId } = event.data;
      return {
        ...state,
        recoText: [...state.recoText, text],
        recoTextMissing: state.recoTextMissing.filter((f) => f !== fileId),
        recoSourceIds: [...state.recoSourceIds, sourceId],
      };
    }
    case 'RecognitionFailed': {
      const { fileId, sourceId } = event.data;
      return {
        ...state,
        recoPending: state.recoPending.filter((f) => f !== fileId),
        recoFailed: [...state.recoFailed, fileId],
        recoSourceIds: [...state.recoSourceIds, sourceId],
      };
    }
    case 'RecoDataValidated': {
      const { recoId, valuesByTags, by } = event.data;
      return {
        ...state,
        recoData: state.recoData.map((e) =>
          e._id === recoId ? { ...e, valuesByTags, validated: true, validatedBy: by } : e,
        ),
      };
    }
    case 'RecoValidationRequested': {
      const { recoIds, validators } = event.data;
      return {
        ...state,
        recoData: state.recoData.map((e) => (recoIds.includes(e._id) ? { ...e, validators } : e)),
      };
    }
    case 'CommentAdded': {
      const { commentId: id, author, text } = event.data;
      return { ...state, comments: [...state.comments, { id, author, text, at }] };
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

/** A part as recorded: not validated yet, with the threshold decideRecoValidation judges it against. */
function recoEntry(
  part: RecognizedPart,
  fileId: string,
  policy: RecoValidationPolicy | undefined,
): RecoEntry {
  const at = policy?.autoValidateAt;
  return { ...part, fileId, validated: false, ...(at === undefined ? {} : { autoValidateAt: at }) };
}

const isEmpty = (v: TagValue | undefined) =>
  v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** Extracted values go into the document's own values only where those are still empty. */
function fillEmpty(values: ValuesByTags, extracted: ValuesByTags[]): ValuesByTags {
  const out = { ...values };
  for (const part of extracted)
    for (const [tag, value] of Object.entries(part))
      if (isEmpty(out[tag]) && !isEmpty(value)) out[tag] = value;
  return out;
}

/** What `evolveDoc` reads of an event besides its data (the event store's context satisfies it). */
export interface DocEventContext {
  /** Revision of the stream after this event (1-based). */
  revision: number;
  metadata: { timestamp: string };
}

export function evolveDoc(state: DocState, event: DocumentEvent, context: DocEventContext): DocState {
  const at = context.metadata.timestamp;
  return {
    ...apply(state, event, at),
    lastModified: at,
    rev: context.revision,
  };
}
