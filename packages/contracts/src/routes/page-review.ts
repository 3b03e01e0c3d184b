/**
 * A recognised page for checking recognition beside it (issues 33 and 34): its layout (the words read,
 * with their boxes) and its image. Readable by whoever may download the file.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { Hex24Id } from '../ids';
import { PageLayout } from '../layout';
import { problemsFor, runAsHeader } from '../responses';

const PageParams = z.object({
  id: z.string().min(8).max(64).openapi({ description: '`_id` (24 hex) or `_id_web` of the document.' }),
  fileId: Hex24Id,
  pageIdx: z
    .string()
    .regex(/^\d{1,4}$/)
    .openapi({ description: '0-based page of the file (as `pageIdxStart` of a `recoData` entry).' }),
});

export const getPageLayoutRoute = createRoute({
  operationId: 'getPageLayout',
  method: 'get',
  path: '/api/v2/docForm/{id}/file/{fileId}/page/{pageIdx}/layout',
  tags: ['recognition'],
  summary: 'The words recognition read on a page, with their boxes, in reading order (extension)',
  description:
    'For whoever may download the file. Boxes are fractions of the page (origin top left), so they lay over ' +
    'the page image at any size. 404: no such page, no layout kept for it (a file recognised before ' +
    'layouts were kept, or still being recognised), or a document the caller may not read.',
  request: { params: PageParams },
  parameters: [runAsHeader],
  responses: {
    200: { description: 'The page layout.', content: { 'application/json': { schema: PageLayout } } },
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});

export const getPageImageRoute = createRoute({
  operationId: 'getPageImage',
  method: 'get',
  path: '/api/v2/docForm/{id}/file/{fileId}/page/{pageIdx}/image',
  tags: ['recognition'],
  summary: 'A recognised page as a PNG image, rendered on the server (extension)',
  description:
    'For whoever may download the file. A PDF page is rendered at 100 dpi, an image is converted to PNG; ' +
    'the result is kept, so later requests are served without rendering. 404: no such page, a file not ' +
    'recognised yet, or a document the caller may not read; 422: the file cannot be rendered.',
  request: { params: PageParams },
  parameters: [runAsHeader],
  responses: {
    200: {
      description: 'The page image.',
      content: { 'image/png': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...problemsFor(400, 401, 403, 404, 422, 429, 503),
  },
});
