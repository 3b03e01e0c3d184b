import { envFields } from '@docflow/kit';
import { z } from 'zod';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './retry-schedule';

/**
 * DOCFLOW_WEBHOOK_ALLOWED_HOSTS: host names, addresses and CIDRs webhooks may reach although they are
 * loopback or private (default: none). DOCFLOW_WEBHOOK_RETRY_SCHEDULE: the delays between attempts,
 * e.g. `5s,5m,30m,2h,5h,10h,10h` (the default). DOCFLOW_WEBHOOK_TIMEOUT_MS: one attempt's limit.
 * DOCFLOW_WEBHOOK_LOG_DAYS: how long delivered and given-up deliveries stay in the log (the outbox).
 */
export const WebhooksEnv = z.object({
  DOCFLOW_WEBHOOK_ALLOWED_HOSTS: envFields.csv.default([]),
  DOCFLOW_WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default(DEFAULT_RETRY_SCHEDULE)
    .transform((text, ctx) => {
      try {
        return parseRetrySchedule(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  DOCFLOW_WEBHOOK_TIMEOUT_MS: envFields.positiveInt.max(300_000).default(10_000),
  DOCFLOW_WEBHOOK_LOG_DAYS: envFields.positiveInt.max(3650).default(30),
});
export type WebhooksConfig = z.infer<typeof WebhooksEnv>;
