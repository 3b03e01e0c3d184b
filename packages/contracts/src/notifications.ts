/**
 * E-mail notifications (issue 36): the person's own setting, and the internal routes by which the
 * workflow service asks, at send time, identity where to send and the document service what the
 * document is called. No address ever leaves identity but in that answer (never in an event, a log or
 * the bus), so an erased person is simply not found.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { Hex24Id, UsrId } from './ids';
import { internalRoute } from './internal-route';
import { problemsFor } from './responses';

export const NotificationSettings = z
  .strictObject({
    email: z.boolean().openapi({
      description:
        'Whether docflow e-mails this person about their tasks (opened, due soon, overdue, escalated).',
    }),
  })
  .openapi('NotificationSettings');
export type NotificationSettings = z.infer<typeof NotificationSettings>;

/** Until a person chooses: e-mail on. */
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = { email: true };

export const getMyNotificationsRoute = createRoute({
  operationId: 'getMyNotifications',
  method: 'get',
  path: '/api/v2/me/notifications',
  tags: ['person'],
  summary: "The caller's notification settings (extension)",
  responses: {
    200: {
      description: 'The settings.',
      content: { 'application/json': { schema: NotificationSettings } },
    },
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});

export const putMyNotificationsRoute = createRoute({
  operationId: 'putMyNotifications',
  method: 'put',
  path: '/api/v2/me/notifications',
  tags: ['person'],
  summary: "Sets the caller's notification settings, e.g. `{email: false}` to receive no e-mail (extension)",
  request: { body: { content: { 'application/json': { schema: NotificationSettings } }, required: true } },
  responses: {
    200: {
      description: 'The settings now.',
      content: { 'application/json': { schema: NotificationSettings } },
    },
    ...problemsFor(400, 401, 403, 404, 413, 415, 429, 503),
  },
});

export const NotificationRecipientsRequest = z.strictObject({ ids: z.array(UsrId).max(500) });
/** Only the active, not erased persons who want e-mail appear. */
export const NotificationRecipientsResponse = z.object({
  recipients: z.record(z.string(), z.object({ email: z.string(), name: z.string() })),
});

/** identity: where to e-mail these people now. */
export const notificationRecipientsRoute = internalRoute({
  method: 'post',
  path: '/internal/v1/notification-recipients',
  body: NotificationRecipientsRequest,
  output: NotificationRecipientsResponse,
  problems: [400, 401, 415, 503],
});

/** What people call the document (its `title`), as the e-mail about it names it. */
export const DocumentTitle = z.object({ title: z.string() });

/** document: a live document's title now (404: no such document, or deleted). */
export const documentTitleRoute = internalRoute({
  method: 'get',
  path: '/internal/v1/documents/{docId}/title',
  params: z.object({ docId: Hex24Id }),
  output: DocumentTitle,
  problems: [400, 401, 404, 503],
});
