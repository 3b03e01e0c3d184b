/**
 * The webhooks service's HTTP API, reached only through the gateway (internal token required; the
 * gateway checked role `svcAdminSysRW`). Paths mirror the public ones.
 */
import { WebhookCreate, WebhookDeliveriesQuery, WebhookId } from '@docflow/contracts';
import { parseWith, problems, readJson, type ServiceEnv } from '@docflow/kit/http';
import { withTimeout } from '@docflow/timing';
import { Hono } from 'hono';
import type { Outbox } from './outbox';
import { publicView, type SubscriptionStore } from './subscriptions';
import { type AllowList, bareHost, checkResolvedHost, RefusedTarget, refusedLiteral } from './target-guard';

export interface WebhooksApiDeps {
  subscriptions: SubscriptionStore;
  outbox: Outbox;
  allow: AllowList;
}

const LOOKUP_TIMEOUT_MS = 3000;

/**
 * 400 for a target the guard refuses; a name that does not resolve now (or not quickly) is accepted,
 * and checked again at every delivery.
 */
async function checkTarget(url: URL, allow: AllowList): Promise<void> {
  const literal = refusedLiteral(url, allow);
  if (literal) throw problems.badRequest(new RefusedTarget(bareHost(url), literal).message);
  try {
    await withTimeout(checkResolvedHost(bareHost(url), allow), LOOKUP_TIMEOUT_MS, 'resolving the host');
  } catch (error) {
    if (error instanceof RefusedTarget) throw problems.badRequest(error.message);
  }
}

export function webhooksApi({ subscriptions, outbox, allow }: WebhooksApiDeps): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  const find = (rawId: string) => {
    const subscription = subscriptions.get(parseWith('path', WebhookId, rawId));
    if (!subscription) throw problems.notFound('no such webhook');
    return subscription;
  };

  app.post('/api/admin/v1/webhooks', async (c) => {
    const input = await readJson(c, WebhookCreate);
    await checkTarget(new URL(input.url), allow);
    const subscription = subscriptions.create(input);
    c.var.log.info({ webhook: subscription.id, eventTypes: subscription.eventTypes }, 'webhook registered');
    return c.json({ ...publicView(subscription), secret: subscription.secret }, 201);
  });

  app.get('/api/admin/v1/webhooks', (c) => c.json(subscriptions.list().map(publicView)));

  app.get('/api/admin/v1/webhooks/:id', (c) => c.json(publicView(find(c.req.param('id')))));

  app.delete('/api/admin/v1/webhooks/:id', (c) => {
    const { id } = find(c.req.param('id'));
    subscriptions.delete(id);
    outbox.removeOf(id);
    c.var.log.info({ webhook: id }, 'webhook deleted');
    return c.body(null, 204);
  });

  app.get('/api/admin/v1/webhooks/:id/deliveries', (c) => {
    const { id } = find(c.req.param('id'));
    const { first, pageSize } = parseWith('query', WebhookDeliveriesQuery, c.req.query());
    const { total, page } = outbox.log(id, first, pageSize);
    c.header('svc-total-count', String(total));
    return c.json(page);
  });
  return app;
}
