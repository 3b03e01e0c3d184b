/**
 * Structured JSON logs (pino). Secrets are censored by key at a line's top level and one level down
 * (and in `req.headers`), and e-mail addresses wherever they appear in a line (a message, a path, an
 * error): logs carry no personal data beyond `usr-` ids. A line written inside a trace carries its
 * `traceId` and `spanId`.
 */
import { type DestinationStream, type Logger, pino } from 'pino';
import { activeTraceIds } from './trace-context';

export type { Logger };

const SECRET_KEYS = new Set(['pwd', 'password', 'apiKey', 'authorization', 'keyHash', 'pwdHash', 'token']);
const CENSORED = '[redacted]';

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => value !== null && typeof value === 'object';

function holdsSecret(fields: Fields): boolean {
  for (const key in fields) if (SECRET_KEYS.has(key)) return true;
  return false;
}

/** A copy of `fields` (of the same class: an error stays one) with its secret keys censored. */
function censored(fields: Fields): Fields {
  const copy = Object.create(
    Object.getPrototypeOf(fields),
    Object.getOwnPropertyDescriptors(fields),
  ) as Fields;
  for (const key in copy) if (SECRET_KEYS.has(key)) copy[key] = CENSORED;
  return copy;
}

/**
 * The fields of a line (or of a child logger's bindings) with every secret key censored at the top and
 * one level down, and in `req.headers`: the object itself when it holds none, which is every line on
 * the request path. (pino's `redact` with wildcard paths re-serialized every value of every line.)
 */
function withoutSecrets(fields: Fields): Fields {
  let out = fields;
  for (const key in fields) {
    const value = fields[key];
    let replacement: unknown;
    if (SECRET_KEYS.has(key)) replacement = CENSORED;
    else if (isObject(value) && holdsSecret(value)) replacement = censored(value);
    else if (key === 'req' && isObject(value) && isObject(value.headers) && holdsSecret(value.headers))
      replacement = { ...value, headers: censored(value.headers) };
    else continue;
    if (out === fields) out = { ...fields };
    out[key] = replacement;
  }
  return out;
}

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

/** pino's `isoTime`, formatted once a millisecond: a busy process writes several lines in each. */
let lastMs = Number.NaN;
let lastTime = '';
function isoTime(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

export function createLogger(
  service: string,
  level = process.env.LOG_LEVEL ?? 'info',
  // Written off the event loop: lines logged while a write is under way go out together with the next
  // one (one write for many requests under load); what is buffered is written out when the process exits.
  destination: DestinationStream = pino.destination({ dest: 1, sync: false }),
): Logger {
  const logger = pino(
    {
      level,
      base: { service },
      timestamp: isoTime,
      mixin: () => activeTraceIds() ?? {},
      formatters: { log: withoutSecrets },
    },
    emailRedacting(destination),
  );
  // pino applies no formatter to a child's bindings; children inherit this from their parent.
  const child = logger.child;
  logger.child = function childWithoutSecrets(this: Logger, bindings, options) {
    return child.call(this, withoutSecrets(bindings), options);
  } as typeof logger.child;
  return logger;
}
