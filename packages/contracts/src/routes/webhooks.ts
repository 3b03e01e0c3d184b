/** Admin API (extension): webhook subscriptions and their delivery log. Needs role `svcAdminSysRW`. */
import { createRoute, z } from '@hono/zod-openapi';
import { problemsFor } from '../responses';
import {
  CreatedWebhook,
  Webhook,
  WebhookCreate,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookId,
} from '../webhooks';

const webhookLinks = {
  GetWebhook: { operationId: 'getWebhook', parameters: { id: '$response.body#/id' } },
  ListWebhookDeliveries: { operationId: 'listWebhookDeliveries', parameters: { id: '$response.body#/id' } },
  DeleteWebhook: { operationId: 'deleteWebhook', parameters: { id: '$response.body#/id' } },
};
const params = z.object({ id: WebhookId });

export const createWebhookRoute = createRoute({
  operationId: 'createWebhook',
  method: 'post',
  path: '/api/admin/v1/webhooks',
  tags: ['admin'],
  summary: 'Subscribe a URL to document events',
  description:
    'The signing secret is returned once, in this answer. A URL whose host is (or resolves to) a ' +
    'loopback, private, link-local, unique-local, multicast or unspecified address is 400 unless ' +
    '`DOCFLOW_WEBHOOK_ALLOWED_HOSTS` names it.',
  request: { body: { required: true, content: { 'application/json': { schema: WebhookCreate } } } },
  responses: {
    201: {
      description: 'Created.',
      content: { 'application/json': { schema: CreatedWebhook } },
      links: webhookLinks,
    },
    ...problemsFor(400, 401, 403, 413, 415, 429, 503),
  },
});

export const listWebhooksRoute = createRoute({
  operationId: 'listWebhooks',
  method: 'get',
  path: '/api/admin/v1/webhooks',
  tags: ['admin'],
  summary: 'List the webhook subscriptions',
  responses: {
    200: {
      description: 'Every subscription, oldest first.',
      content: { 'application/json': { schema: z.array(Webhook) } },
    },
    ...problemsFor(401, 403, 429, 503),
  },
});

export const getWebhookRoute = createRoute({
  operationId: 'getWebhook',
  method: 'get',
  path: '/api/admin/v1/webhooks/{id}',
  tags: ['admin'],
  summary: 'Read a webhook subscription (without its secret)',
  request: { params },
  responses: {
    200: { description: 'The subscription.', content: { 'application/json': { schema: Webhook } } },
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});

export const deleteWebhookRoute = createRoute({
  operationId: 'deleteWebhook',
  method: 'delete',
  path: '/api/admin/v1/webhooks/{id}',
  tags: ['admin'],
  summary: 'Delete a webhook subscription',
  description: 'Nothing more is delivered to it, pending deliveries included.',
  request: { params },
  responses: {
    204: { description: 'Deleted.' },
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});

export const listWebhookDeliveriesRoute = createRoute({
  operationId: 'listWebhookDeliveries',
  method: 'get',
  path: '/api/admin/v1/webhooks/{id}/deliveries',
  tags: ['admin'],
  summary: 'The delivery log of a subscription, newest first',
  request: { params, query: WebhookDeliveriesQuery },
  responses: {
    200: {
      description: 'The page of deliveries; `svc-total-count` is the number of deliveries.',
      headers: { 'svc-total-count': { schema: { type: 'integer' } } },
      content: { 'application/json': { schema: z.array(WebhookDelivery) } },
    },
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});
