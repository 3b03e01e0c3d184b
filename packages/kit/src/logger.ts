/**
 * Structured JSON logs (pino). Secrets are redacted by key wherever they appear. A line written inside
 * a trace carries its `traceId` and `spanId`.
 */
import { type Logger, pino } from 'pino';
import { activeTraceIds } from './trace-context';

export type { Logger };

const REDACTED_KEYS = ['pwd', 'password', 'apiKey', 'authorization', 'keyHash', 'pwdHash', 'token'];

export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: () => activeTraceIds() ?? {},
    redact: {
      paths: [...REDACTED_KEYS, ...REDACTED_KEYS.map((k) => `*.${k}`), 'req.headers.authorization'],
      censor: '[redacted]',
    },
  });
}
