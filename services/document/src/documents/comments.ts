/**
 * The comment thread of a document (issue 36): whoever may read the document reads and adds comments.
 * The text is kept as written; it reaches webhooks by id only (webhooks' event-mapping).
 */
import {
  type Comment,
  CommentCreate,
  type DocumentEvent,
  docFormStream,
  rejections,
} from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { newHexId } from '@docflow/kit';
import { commandMetadata, executeCommand } from '@docflow/kit/eventsourcing';
import { readJson, type ServiceEnv } from '@docflow/kit/http';
import type { Hono } from 'hono';
import { type DocState, docAggregate } from './docForm';
import type { DocReader } from './readable';

interface AddComment {
  commentId: string;
  author: string;
  text: string;
}

/** Pure: one CommentAdded (the caller has checked the document is readable to the author). */
export function decideAddComment(cmd: AddComment, state: DocState): DocumentEvent[] {
  if (!state.exists) throw rejections.notFound('no such document');
  return [{ type: 'CommentAdded', data: { commentId: cmd.commentId, author: cmd.author, text: cmd.text } }];
}

export function commentRoutes(app: Hono<ServiceEnv>, store: EventStore, reader: DocReader): void {
  const path = '/api/v2/docForm/:id/comments';
  app.get(path, async (c) => {
    const doc = await reader.readableDoc(c, c.req.param('id'));
    return c.json(doc.comments satisfies Comment[]);
  });
  app.post(path, async (c) => {
    const doc = await reader.readableDoc(c, c.req.param('id'));
    const { text } = await readJson(c, CommentCreate);
    const commentId = newHexId();
    const author = c.var.principal.subject;
    const result = await executeCommand(
      store,
      docFormStream(doc.id),
      docAggregate,
      (state) => decideAddComment({ commentId, author, text }, state),
      commandMetadata(c.var.principal, c.var),
    );
    return c.json(
      result.state.comments.find((m) => m.id === commentId),
      201,
    );
  });
}
