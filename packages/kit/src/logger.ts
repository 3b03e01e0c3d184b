/** Structured JSON logs (pino). Secrets are redacted by key wherever they appear. */
import { type Logger, pino } from 'pino';

export type { Logger };

const REDACTED_KEYS = ['pwd', 'password', 'apiKey', 'authorization', 'keyHash', 'pwdHash', 'token'];

export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [...REDACTED_KEYS, ...REDACTED_KEYS.map((k) => `*.${k}`), 'req.headers.authorization'],
      censor: '[redacted]',
    },
  });
}
