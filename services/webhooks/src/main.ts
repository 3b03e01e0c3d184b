/** The webhooks service on its own (distributed mode): one instance, its outbox in its local database. */
import { DistributedEnv } from '@docflow/kit/engines';
import { httpClient } from '@docflow/kit/http';
import { runDistributedService } from '@docflow/kit/runner';
import { z } from 'zod';
import { WebhooksEnv } from './config';
import { createWebhooksService } from './service';

const Env = DistributedEnv.extend(WebhooksEnv.shape).extend({ DOCUMENT_URL: z.url() });

await runDistributedService('webhooks', Env, (config, log, engines) =>
  createWebhooksService({
    ...engines,
    log,
    namespace: config.DOCFLOW_NAMESPACE,
    internalToken: config.DOCFLOW_INTERNAL_TOKEN,
    allowedHosts: config.DOCFLOW_WEBHOOK_ALLOWED_HOSTS,
    retrySchedule: config.DOCFLOW_WEBHOOK_RETRY_SCHEDULE,
    timeoutMs: config.DOCFLOW_WEBHOOK_TIMEOUT_MS,
    logDays: config.DOCFLOW_WEBHOOK_LOG_DAYS,
    document: httpClient(config.DOCUMENT_URL),
  }),
);
