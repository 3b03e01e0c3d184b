/**
 * The webhooks service's HTTP API, reached only through the gateway (internal token required; the
 * gateway checked role `svcAdminSysRW`). Paths mirror the public ones.
 */
import { randomBytes } from 'node:crypto';
import { WebhookCreate, WebhookDeliveriesQuery, WebhookId } from '@docflow/contracts';
import { newHexId } from '@docflow/kit';
import { parseWith, readJson, type ServiceEnv } from '@docflow/kit/http';
import { withTimeout } from '@docflow/timing';
import { Hono } from 'hono';
import { decideCreate, requireSubscription } from './businessLogic';
import { publicView } from './subscription';
import { type AllowList, bareHost, checkResolvedHost, RefusedTarget } from './target-guard';
import type { Outbox, SubscriptionStore } from './webhooks-store';

export interface WebhooksApiDeps {
  subscriptions: SubscriptionStore;
  outbox: Outbox;
  allow: AllowList;
}

const LOOKUP_TIMEOUT_MS = 3000;

/** Why the guard refuses what the target's host resolves to, if it does; a lookup that fails or is slow says nothing. */
async function resolvedRefusal(url: string, allow: AllowList): Promise<string | undefined> {
  try {
    await withTimeout(
      checkResolvedHost(bareHost(new URL(url)), allow),
      LOOKUP_TIMEOUT_MS,
      'resolving the host',
    );
  } catch (error) {
    if (error instanceof RefusedTarget) return error.message;
  }
  return undefined;
}

export function webhooksApi({ subscriptions, outbox, allow }: WebhooksApiDeps): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  const find = async (rawId: string) =>
    requireSubscription(await subscriptions.get(parseWith('path', WebhookId, rawId)));

  app.post('/api/admin/v1/webhooks', async (c) => {
    const input = await readJson(c, WebhookCreate);
    const subscription = decideCreate(
      {
        input,
        id: `wh_${newHexId()}`,
        secret: `whsec_${randomBytes(32).toString('base64')}`,
        createdAt: new Date().toISOString(),
        resolvedRefusal: await resolvedRefusal(input.url, allow),
      },
      allow,
    );
    await subscriptions.add(subscription);
    c.var.log.info({ webhook: subscription.id, eventTypes: subscription.eventTypes }, 'webhook registered');
    return c.json({ ...publicView(subscription), secret: subscription.secret }, 201);
  });

  app.get('/api/admin/v1/webhooks', async (c) => c.json((await subscriptions.list()).map(publicView)));

  app.get('/api/admin/v1/webhooks/:id', async (c) => c.json(publicView(await find(c.req.param('id')))));

  app.delete('/api/admin/v1/webhooks/:id', async (c) => {
    const { id } = await find(c.req.param('id'));
    await subscriptions.delete(id);
    await outbox.removeOf(id);
    c.var.log.info({ webhook: id }, 'webhook deleted');
    return c.body(null, 204);
  });

  app.get('/api/admin/v1/webhooks/:id/deliveries', async (c) => {
    const { id } = await find(c.req.param('id'));
    const { first, pageSize } = parseWith('query', WebhookDeliveriesQuery, c.req.query());
    const { total, page } = await outbox.log(id, first, pageSize);
    c.header('svc-total-count', String(total));
    return c.json(page);
  });
  return app;
}
