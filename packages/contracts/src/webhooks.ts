/**
 * Webhooks (extension): subscriptions of client systems to document events, the thin payloads they
 * receive, and the delivery log. Deliveries are signed as the Standard Webhooks spec says.
 */
import { z } from '@hono/zod-openapi';
import { namedEnum, STATE_NAMES, STATUS_NAMES } from './codes';
import { EscalationAction } from './deadlines';
import { intParam } from './documents';
import { Timestamp } from './ids';

export const WEBHOOK_EVENT_TYPES = [
  'document.created',
  'document.state_changed',
  'task.opened',
  'task.answered',
  'task.due_soon',
  'task.overdue',
  'task.escalated',
  'task.reassigned',
  'recognition.done',
  'comment.added',
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** `wh_` and 24 hex. */
export const WebhookId = z
  .string()
  .regex(/^wh_[0-9a-f]{24}$/, 'must be wh_ followed by 24 lowercase hex characters')
  .openapi({ example: 'wh_65a1f0c2b3d4e5f601234567' });

export const WebhookCreate = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .openapi({ description: 'http(s) URL the events are POSTed to.' }),
    eventTypes: z.array(WebhookEventType).min(1).max(WEBHOOK_EVENT_TYPES.length),
    description: z.string().max(500).optional(),
  })
  .openapi('WebhookCreate');
export type WebhookCreate = z.infer<typeof WebhookCreate>;

export const Webhook = z
  .object({
    id: WebhookId,
    url: z.string(),
    eventTypes: z.array(WebhookEventType),
    description: z.string().optional(),
    createdAt: Timestamp,
  })
  .openapi('Webhook');
export type Webhook = z.infer<typeof Webhook>;

export const CreatedWebhook = Webhook.extend({
  secret: z.string().openapi({
    description:
      'The signing secret (`whsec_` and base64), only in this answer: verify each delivery with it.',
  }),
}).openapi('CreatedWebhook');

/** What a delivery's body is: ids and states only, never field values or personal data. */
export const WebhookPayload = z
  .object({
    type: WebhookEventType,
    timestamp: Timestamp,
    data: z.object({
      documentId: z.string(),
      idWeb: z.string(),
      form: z.string(),
      revision: z
        .number()
        .int()
        .openapi({ description: 'The document\u2019s `_meta._rev` after the event.' }),
      state: z.number().int().openapi(namedEnum(STATE_NAMES)).optional(),
      status: z.number().int().openapi(namedEnum(STATUS_NAMES)).optional(),
      step: z.number().int().optional(),
      iteration: z.number().int().optional(),
      taskId: z.string().optional().openapi({ description: 'The DocResponse\u2019s `respId`.' }),
      taskstatus: z.number().int().optional(),
      dueAt: Timestamp.optional().openapi({
        description: 'task.due_soon, task.overdue: when the task is due.',
      }),
      escalation: EscalationAction.optional().openapi({ description: 'task.escalated: what the form did.' }),
      newTaskIds: z
        .array(z.string())
        .optional()
        .openapi({
          description:
            'task.reassigned: the `respId`s of the tasks that opened in place of `taskId`, which closed ' +
            '(each also comes as task.opened). A person handed it over, or the stage\u2019s escalation did.',
        }),
      fileId: z.string().optional(),
      recognized: z.boolean().optional(),
      commentId: z.string().optional().openapi({
        description: 'comment.added: the comment’s id (never its text: read it through the API).',
      }),
    }),
  })
  .openapi('WebhookPayload');
export type WebhookPayload = z.infer<typeof WebhookPayload>;

export const WebhookDeliveryStatus = z.enum(['pending', 'delivered', 'failed']);

export const WebhookDelivery = z
  .object({
    webhookId: z.string().openapi({ description: 'The `webhook-id` header: the same on every attempt.' }),
    eventType: WebhookEventType,
    documentId: z.string(),
    status: WebhookDeliveryStatus.openapi({ description: '`failed`: given up after the last retry.' }),
    attempts: z.number().int(),
    lastStatus: z.number().int().nullable().openapi({ description: 'HTTP status of the last attempt.' }),
    lastError: z.string().nullable(),
    nextAttemptAt: Timestamp.nullable(),
    deliveredAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .openapi('WebhookDelivery');
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveriesQuery = z.object({
  first: intParam(0, 2147483646).default(0).openapi({ description: '0-based index of the first entry.' }),
  pageSize: intParam(1, 1000).default(100),
});
