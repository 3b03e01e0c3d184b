/**
 * Request headers the gateway passes on to the document service, which alone can act on them: the
 * conditional headers (ETag preconditions) and `Idempotency-Key`.
 */
import type { GatewayContext } from './forward';

const PASSED = ['if-match', 'if-none-match', 'idempotency-key'] as const;

/** @example forward(c, services.document, token, { headers: passedHeaders(c) }) */
export function passedHeaders(c: GatewayContext): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of PASSED) {
    const value = c.req.header(name);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}
