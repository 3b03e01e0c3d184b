/**
 * Events of the document service: `docForm-<_id>` streams (a document and the facts other services
 * publish about it) and `form-<name>` streams. All schema version 1.
 */
import { z } from '@hono/zod-openapi';
import { DocTags, ValuesByTags } from './documents';
import { RecordedFormDefinition, WorkflowConfig } from './forms';
import { RecoValidatedBy } from './reco-validation';
import { RecognitionEvents } from './recognition-events';

export const StoredFile = z.object({
  id: z.string().regex(/^[0-9a-f]{24}$/),
  fileName: z.string(),
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  contentType: z.string(),
});
export type StoredFile = z.infer<typeof StoredFile>;

export const DocumentEvents = {
  DocumentCreated: z.object({
    id: z.string(),
    form: z.string(),
    formsystype: z.number().int(),
    author: z.string(),
    valuesByTags: ValuesByTags,
    tags: DocTags,
    files: z.array(StoredFile),
    /** ISO 8601 UTC or '' (no due date). */
    datedue: z.string(),
    /** The form's workflow configuration when the document was created (absent: the form has none). */
    workflow: WorkflowConfig.optional(),
    /**
     * What titles the document: the form's title and its `titleField`, as the form was then (absent in
     * a document created before titles: it is titled by its form's name).
     */
    title: z.object({ formTitle: z.string(), field: z.string().optional() }).optional(),
    /** When the form has recognition forms and files came: what the recognition service needs. */
    recognition: z
      .object({ form: RecordedFormDefinition, idpLangs: z.string(), idpFrpr: z.boolean() })
      .optional(),
  }),
  /** The recognition service's result for one attachment (`sourceId`: its event id). */
  RecognitionRecorded: RecognitionEvents.FileRecognized.extend({ sourceId: z.string() }),
  RecognitionFailed: RecognitionEvents.FileRecognitionFailed.extend({ sourceId: z.string() }),
  /** The text of an attachment recognised before recognition kept text (`sourceId`: its event id). */
  RecognitionTextRecorded: RecognitionEvents.FileTextRecognized.extend({ sourceId: z.string() }),
  /**
   * A recognised part validated, `validated: true`: by a person (PUT recoData: its values replaced), or
   * by recognition itself when every value cleared the form's `autoValidateAt` (`threshold`; its values
   * as read). `by` is an added optional key, absent in every event written before issue 34 — all a
   * person's — so those read unchanged on every road (history and export bundles parse the recorded
   * data as it is, with no version to upcast from): absent means a person.
   */
  RecoDataValidated: z.object({
    recoId: z.string(),
    valuesByTags: ValuesByTags,
    by: RecoValidatedBy.optional(),
    threshold: z.number().min(0).max(100).optional(),
  }),
  /** Recognised parts that wait for a person's validation: their task is in `validators`' inboxes. */
  RecoValidationRequested: z.object({ recoIds: z.array(z.string()).min(1), validators: z.array(z.string()) }),
  /** A participant's corrections (PUT docResponse with `docForm`): the new values and tags. */
  DocumentFieldsUpdated: z.object({ valuesByTags: ValuesByTags, tags: DocTags }),
  /** A comment on the document (issue 36): `author` wrote `text`; the event's time is when. */
  CommentAdded: z.object({
    commentId: z.string().regex(/^[0-9a-f]{24}$/),
    author: z.string(),
    text: z.string(),
  }),
  /**
   * Facts the workflow service published about the document, recorded in its stream so that the
   * stream alone rebuilds the document; `sourceIds` are the workflow events' ids (for deduplication).
   */
  WorkflowChanged: z.object({
    sourceIds: z.array(z.string()).min(1),
    events: z.array(z.object({ type: z.string(), data: z.record(z.string(), z.unknown()) })).min(1),
  }),
};

export type DocumentEvent = {
  [K in keyof typeof DocumentEvents]: { type: K; data: z.infer<(typeof DocumentEvents)[K]> };
}[keyof typeof DocumentEvents];

export function parseDocumentEvent(type: string, data: unknown): DocumentEvent {
  const schema = DocumentEvents[type as keyof typeof DocumentEvents];
  if (!schema) throw new Error(`unknown document event type ${type}`);
  return { type, data: schema.parse(data) } as DocumentEvent;
}

export const FormEvents = {
  FormDefined: z.object({ definition: RecordedFormDefinition }),
};
export type FormEvent = { type: 'FormDefined'; data: z.infer<typeof FormEvents.FormDefined> };

export function parseFormEvent(type: string, data: unknown): FormEvent {
  if (type !== 'FormDefined') throw new Error(`unknown form event type ${type}`);
  return { type, data: FormEvents.FormDefined.parse(data) };
}

/** Events of the files service's `file-<fileId>` streams. */
export const FileEvents = {
  FileStored: StoredFile.extend({ blobKey: z.string() }),
  /**
   * A stored file that no document holds was given up: `rejected` when the request that uploaded it
   * failed (the document service said so), `unattached` when the orphan sweeper found no document
   * holding it after the upload grace period. Its content goes once no other stored file shares it.
   */
  FileDiscarded: z.object({
    id: StoredFile.shape.id,
    reason: z.enum(['rejected', 'unattached']),
  }),
};

export const docFormStream = (id: string) => `docForm-${id}`;
export const formStream = (name: string) => `form-${name}`;
export const fileStream = (id: string) => `file-${id}`;
