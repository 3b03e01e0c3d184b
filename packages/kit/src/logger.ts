/**
 * Structured JSON logs (pino). Secrets are redacted by key wherever they appear, and e-mail addresses
 * wherever they appear in a line (a message, a path, an error): logs carry no personal data beyond
 * `usr-` ids. A line written inside a trace carries its `traceId` and `spanId`.
 */
import { type DestinationStream, type Logger, pino } from 'pino';
import { activeTraceIds } from './trace-context';

export type { Logger };

const REDACTED_KEYS = ['pwd', 'password', 'apiKey', 'authorization', 'keyHash', 'pwdHash', 'token'];

/** An address as RFC 5321 allows it in practice; JSON escapes none of these characters. */
const EMAIL = /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
export const REDACTED_EMAIL = '[email]';

/** The line with every e-mail address replaced. */
export function redactEmails(line: string): string {
  return line.includes('@') ? line.replace(EMAIL, REDACTED_EMAIL) : line;
}

/** Writes each serialized line to `target` with its e-mail addresses redacted. */
export function emailRedacting(target: DestinationStream): DestinationStream {
  return { write: (line: string) => target.write(redactEmails(line)) };
}

export function createLogger(
  service: string,
  level = process.env.LOG_LEVEL ?? 'info',
  destination: DestinationStream = pino.destination({ dest: 1, sync: true }),
): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: () => activeTraceIds() ?? {},
      redact: {
        paths: [...REDACTED_KEYS, ...REDACTED_KEYS.map((k) => `*.${k}`), 'req.headers.authorization'],
        censor: '[redacted]',
      },
    },
    emailRedacting(destination),
  );
}
