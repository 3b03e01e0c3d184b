/** `/healthz` (the process runs) and `/readyz` (every engine it needs answers). */
import { withTimeout } from '@docflow/timing';
import { Hono } from 'hono';

export type ReadinessCheck = () => Promise<void>;

const CHECK_TIMEOUT_MS = 2000;

/** @example app.route('/', healthRoutes({ eventStore: () => store.ping() })); */
export function healthRoutes(checks: Record<string, ReadinessCheck>): Hono {
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    const names = Object.keys(checks);
    const results = await Promise.allSettled(
      names.map(async (n) => withTimeout(checks[n]!(), CHECK_TIMEOUT_MS, `checking ${n}`)),
    );
    const report = Object.fromEntries(
      names.map((n, i) => [n, results[i]!.status === 'fulfilled' ? 'up' : 'down']),
    );
    const ready = results.every((r) => r.status === 'fulfilled');
    if (!ready) c.header('retry-after', '5');
    return c.json({ status: ready ? 'ready' : 'not ready', checks: report }, ready ? 200 : 503);
  });
  return app;
}
