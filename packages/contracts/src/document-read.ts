/** What GET /api/v2/docForm/{id} answers: the document with what `embed` adds, or its `fields` selection. */
import { z } from '@hono/zod-openapi';
import { DocForm, DocResponse, FileEntry } from './documents';
import { RecoData } from './recognition-events';

/** The document whole, with the entities `embed` adds. */
export const DocFormEmbedded = DocForm.extend({
  docResponse: DocResponse.nullable()
    .optional()
    .openapi({ description: '`embed=docResponse`: the caller\u2019s open task, or null.' }),
  recoData: z
    .array(RecoData)
    .optional()
    .openapi({ description: '`embed=recoData` (or `recoResult`): the recognised parts.' }),
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
  })
  .openapi('DocFormSelection');

export const DocFormRead = z.union([DocFormEmbedded, DocFormSelection]).openapi('DocFormRead', {
  description: 'The document (`DocFormEmbedded`), or with `fields` the selection of it (`DocFormSelection`).',
});
