/**
 * Comments (issue 36): a thread on a document — who, when, text. The text is stored as the caller sent
 * it and is only ever shown as text (never parsed as markdown or HTML); webhooks carry its id only.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { Hex24Id, Timestamp, UsrId } from './ids';
import { problemsFor, runAsHeader } from './responses';

const COMMENT_MAX_CHARS = 10_000;

export const CommentCreate = z
  .strictObject({ text: z.string().trim().min(1).max(COMMENT_MAX_CHARS) })
  .openapi('CommentCreate');

export const Comment = z
  .object({
    id: Hex24Id,
    author: UsrId,
    at: Timestamp,
    text: z.string().openapi({ description: 'As written: show it as text; it is never rendered as markup.' }),
  })
  .openapi('Comment');
export type Comment = z.infer<typeof Comment>;

const params = z.object({
  id: z.string().min(8).max(64).openapi({ description: '`_id` (24 hex) or `_id_web` of the document.' }),
});

export const addCommentRoute = createRoute({
  operationId: 'addComment',
  method: 'post',
  path: '/api/v2/docForm/{id}/comments',
  tags: ['documents'],
  summary: 'Comment on a document (extension)',
  description: 'For whoever may read the document; 404 for anyone else.',
  request: { params, body: { required: true, content: { 'application/json': { schema: CommentCreate } } } },
  parameters: [runAsHeader],
  responses: {
    201: { description: 'The comment.', content: { 'application/json': { schema: Comment } } },
    ...problemsFor(400, 401, 403, 404, 409, 413, 415, 429, 503),
  },
});

export const listCommentsRoute = createRoute({
  operationId: 'listComments',
  method: 'get',
  path: '/api/v2/docForm/{id}/comments',
  tags: ['documents'],
  summary: 'The comments on a document, oldest first (extension)',
  description: 'For whoever may read the document; 404 for anyone else.',
  request: { params },
  parameters: [runAsHeader],
  responses: {
    200: { description: 'The thread.', content: { 'application/json': { schema: z.array(Comment) } } },
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});
