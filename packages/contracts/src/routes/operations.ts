/**
 * The operator's endpoints every process serves outside `/api` (liveness, readiness, metrics), declared
 * for the OpenAPI document; kit's health and metrics routes answer them.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { problemsFor } from '../responses';

const Readiness = z
  .object({
    status: z.enum(['ready', 'not ready']),
    checks: z.record(z.string(), z.enum(['up', 'down'])),
  })
  .openapi('Readiness');

export const healthzRoute = createRoute({
  operationId: 'healthz',
  method: 'get',
  path: '/healthz',
  tags: ['operations'],
  summary: 'Liveness: the process runs',
  security: [],
  responses: {
    200: {
      description: 'The process runs.',
      content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } },
    },
  },
});

export const readyzRoute = createRoute({
  operationId: 'readyz',
  method: 'get',
  path: '/readyz',
  tags: ['operations'],
  summary: 'Readiness: every engine and service this process needs answers',
  security: [],
  responses: {
    200: { description: 'Ready.', content: { 'application/json': { schema: Readiness } } },
    503: {
      description: 'Not ready: the checks say which dependency is down; retry after `Retry-After` seconds.',
      headers: { 'Retry-After': { schema: { type: 'integer' } } },
      content: { 'application/json': { schema: Readiness } },
    },
  },
});

export const metricsRoute = createRoute({
  operationId: 'metrics',
  method: 'get',
  path: '/metrics',
  tags: ['operations'],
  summary: 'Prometheus metrics (text exposition format)',
  description: 'Needs the metrics token as a bearer token when DOCFLOW_METRICS_TOKEN is set.',
  security: [{}, { metricsToken: [] }],
  responses: {
    200: {
      description: 'The metrics.',
      content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: z.string() } },
    },
    ...problemsFor(401),
  },
});
