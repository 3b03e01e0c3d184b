/** What GET /api/v2/docForm/{id} answers: the document with what `embed` adds, or its `fields` selection. */
import { z } from '@hono/zod-openapi';
import { DocForm, DocResponse, FileEntry } from './documents';
import { Hex24Id } from './ids';
import { RecoData } from './recognition-events';

/** The workflow commands the caller may send now, as the workflow service decides them. */
export const WorkflowActions = z.object({
  manage: z
    .array(z.number().int())
    .openapi({ description: 'Task statuses of POST docResponse that would change the workflow now.' }),
  answer: z
    .object({ respId: Hex24Id, taskstatus: z.array(z.number().int()) })
    .nullable()
    .openapi({
      description:
        'The caller\u2019s open task (or one they stand in for) and the task statuses of PUT docResponse/{respId} it takes now; null without one.',
    }),
  reassign: z.array(Hex24Id).openapi({
    description:
      'The open tasks (`respId`s) the caller may hand over now with POST docResponse/{respId}/reassign, to ' +
      'a person who has no task of the stage yet (extension).',
  }),
});
export type WorkflowActions = z.infer<typeof WorkflowActions>;

/**
 * `embed=actions`: what the caller may do with the document now, decided by the code that enforces
 * each action, so a client shows no button the server would refuse.
 */
export const DocumentActions = WorkflowActions.extend({
  validateRecoData: z
    .boolean()
    .openapi({ description: 'PUT recoData (the author, an open task, svcAdminDocsRW).' }),
  download: z.boolean().openapi({ description: 'GET file/{fileId} of the files the document holds.' }),
  history: z.boolean(),
  verify: z.boolean(),
  export: z.boolean(),
}).openapi('DocumentActions');
export type DocumentActions = z.infer<typeof DocumentActions>;

/**
 * `embed=names`: how people read the accounts the document names (its author, and each task's assignee
 * and whoever answered it), by `usr-` id, as identity names them now.
 */
export const PeopleNames = z.record(z.string(), z.string()).openapi('PeopleNames', {
  description:
    '`embed=names`: the display name of each account the document names (author, assignees, who answered), ' +
    'by `usr-` id: a person\u2019s first and last name (`[erased]` after an erasure), a service account\u2019s name.',
  example: { 'usr-3c9f30e0-8201-4f28-9b2f-0762e02d6703': 'Alice Example' },
});

/** A document of a view's page: with `embed=names`, the names of the accounts it names. */
export const ListedDocForm = DocForm.extend({ names: PeopleNames.optional() }).openapi('ListedDocForm');

/** The document whole, with the entities `embed` adds. */
export const DocFormEmbedded = DocForm.extend({
  docResponse: DocResponse.nullable()
    .optional()
    .openapi({ description: '`embed=docResponse`: the caller\u2019s open task, or null.' }),
  recoData: z
    .array(RecoData)
    .optional()
    .openapi({ description: '`embed=recoData` (or `recoResult`): the recognised parts.' }),
  actions: DocumentActions.optional().openapi({
    description: '`embed=actions`: what the caller may do now.',
  }),
  names: PeopleNames.optional(),
}).openapi('DocFormEmbedded');

/**
 * With `fields`: only the named top-level fields and the embedded entities, `_id` and `_id_web` always.
 * An embedded entity keeps the named fields of its own, or all of them when none is named.
 */
export const DocFormSelection = DocForm.partial()
  .required({ _id: true, _id_web: true })
  .extend({
    filesList: z.array(FileEntry.partial()).optional(),
    docResponse: DocResponse.partial().nullable().optional(),
    recoData: z.array(RecoData.partial()).optional(),
    actions: DocumentActions.partial().optional(),
    names: PeopleNames.optional(),
  })
  .openapi('DocFormSelection');

export const DocFormRead = z.union([DocFormEmbedded, DocFormSelection]).openapi('DocFormRead', {
  description: 'The document (`DocFormEmbedded`), or with `fields` the selection of it (`DocFormSelection`).',
});
