/**
 * Givens of the document service's unit tests: people, a form, principals and documents built from
 * their events (the workflow facts come from the workflow model's named histories).
 */
import assert from 'node:assert/strict';
import {
  type DocumentEvent,
  type FormDefinition,
  Rejection,
  type RejectionKind,
  type Role,
  type StoredFile,
  type WorkflowEvent,
} from '@docflow/contracts';
import type { Principal } from '@docflow/kit/http';
import { AUTHOR, MEMO, T0 } from '@docflow/workflow-model/testing';
import { type DocState, docAggregate } from './docForm';

export * from '@docflow/workflow-model/testing';

export const DOC_ID = 'd0c000000000000000000002';
export const FILE: StoredFile = {
  id: 'f11e00000000000000000001',
  fileName: 'invoice.png',
  size: 10,
  sha256: '0'.repeat(64),
  contentType: 'image/png',
};
export const RECO_ID = 'ec0000000000000000000001';

export const FORM: FormDefinition = {
  name: 'memo',
  title: 'Memo',
  formsystype: 1,
  tags: { subject: 'string', lines: 'table' },
  workflow: { ...MEMO, dueDays: 5 },
  recognition: { forms: [{ id: 'inv', name: 'Invoice', match: ['invoice'], fields: {} }] },
};

/** The effective principal `subject` holding `roles`. */
export const principal = (subject: string, ...roles: Role[]): Principal => ({
  account: subject,
  subject,
  roles,
});

export const created = (author = AUTHOR): DocumentEvent => ({
  type: 'DocumentCreated',
  data: {
    id: DOC_ID,
    form: 'memo',
    formsystype: 1,
    author,
    valuesByTags: { subject: 'Budget' },
    tags: ['finance'],
    files: [FILE],
    datedue: '',
    workflow: FORM.workflow,
  },
});
export const recognized: DocumentEvent = {
  type: 'RecognitionRecorded',
  data: {
    fileId: FILE.id,
    sourceId: 'reco-1',
    pageCount: 1,
    parts: [
      {
        _id: RECO_ID,
        pageIdxStart: 0,
        pageIdxEnd: 0,
        recoForm: { form: null, id: 'inv', name: 'Invoice' },
        confidence: 90,
        valuesByTags: { subject: 'Invoice 1' },
      },
    ],
  },
};
/** The workflow facts of a history, recorded in the document's stream. */
export const workflowChanged = (facts: WorkflowEvent[]): DocumentEvent => ({
  type: 'WorkflowChanged',
  data: {
    sourceIds: facts.map((_, i) => `wf-${i}`),
    events: facts.map(({ type, data }) => ({ type, data })),
  },
});

/** The document after these events. */
export function doc(...events: DocumentEvent[]): DocState {
  return events.reduce(
    (state, event, i) =>
      docAggregate.evolve(state, event, {
        revision: i + 1,
        metadata: { correlationId: 'test', timestamp: T0 },
      }),
    docAggregate.initial,
  );
}

/** A decision's outcome: the kind of its rejection, or the events it decided. */
export function outcome(decide: () => DocumentEvent[]): RejectionKind | DocumentEvent[] {
  try {
    return decide();
  } catch (err) {
    if (err instanceof Rejection) return err.kind;
    throw err;
  }
}

export function rejects(kind: RejectionKind, fn: () => unknown): void {
  assert.throws(fn, (err: unknown) => err instanceof Rejection && err.kind === kind);
}
