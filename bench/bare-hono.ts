/**
 * The reference server of bench/get-document.ts: a bare Hono JSON route on @hono/node-server, run as
 * its own process like the gateway is. It answers GET /doc with the JSON document it is given in
 * BARE_BODY (a document as the gateway returned it) and logs its port as one JSON line.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const body: unknown = JSON.parse(process.env.BARE_BODY ?? '{}');
const app = new Hono();
app.get('/doc', (c) => c.json(body));

const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
  console.log(JSON.stringify({ msg: 'bare hono listening', port: info.port })),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
