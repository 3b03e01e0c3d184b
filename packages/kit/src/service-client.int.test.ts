/**
 * Both service clients on one path: the in-process client hands the app a lightweight request and the
 * caller as the app's environment, the HTTP client the same call as headers; the guard trusts either.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { InProcessRequest } from './in-process-request';
import { PRINCIPAL_HEADER, type Principal, trustGatewayPrincipal } from './principal';
import { handleError } from './problem';
import { callService, httpClient, inProcessClient, type ServiceClient } from './service-client';

const TOKEN = 'internal-token-of-this-test';
const principal: Principal = { account: 'usr-a', subject: 'usr-a', roles: ['svcAdminDocsRW'] };
const ids = { requestId: 'req-1', correlationId: 'cor-1' };

function serviceApp() {
  const app = new Hono();
  app.onError(handleError);
  app.use('/api/*', trustGatewayPrincipal(TOKEN));
  app.get('/api/echo/:id', (c) =>
    c.json({
      id: c.req.param('id'),
      query: c.req.query('q') ?? null,
      principal: c.get('principal' as never),
      requestId: c.req.header('x-request-id') ?? null,
      principalHeader: c.req.header(PRINCIPAL_HEADER) ?? null,
      lightweight: c.req.raw instanceof InProcessRequest,
    }),
  );
  app.post('/api/json', async (c) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    let again: string;
    try {
      await c.req.raw.text();
      again = 'read twice';
    } catch (error) {
      again = (error as Error).message;
    }
    return c.json({
      type: c.req.header('content-type'),
      body: JSON.parse(new TextDecoder().decode(bytes)),
      again,
    });
  });
  app.post('/api/stream', async (c) => c.json({ text: await new Response(c.req.raw.body).text() }));
  return app;
}

function streamOf(...parts: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
      controller.close();
    },
  });
}

const clients: Record<string, () => ServiceClient> = {};
let server: ReturnType<typeof serve> | undefined;
before(async () => {
  const app = serviceApp();
  clients['in-process'] = () => inProcessClient(app.fetch);
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
      resolve(info.port),
    );
  });
  clients.http = () => httpClient(`http://127.0.0.1:${port}`);
});
after(() => server?.close());

for (const mode of ['in-process', 'http'] as const) {
  describe(`service client: ${mode}`, () => {
    const call = (method: string, path: string, body?: unknown, internalToken = TOKEN) =>
      callService(clients[mode]!(), { method, path, internalToken, principal, ids, body });

    it('passes the path (percent-encoded), the query, the ids and the principal', async () => {
      const res = await call('GET', '/api/echo/a%2Fb?q=x%20y');
      assert.equal(res.status, 200);
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body.id, 'a/b');
      assert.equal(body.query, 'x y');
      assert.deepEqual(body.principal, principal);
      assert.equal(body.requestId, ids.requestId);
      // In-process the principal is handed over as an object, never as a header.
      assert.equal(body.principalHeader === null, mode === 'in-process');
      assert.equal(body.lightweight, mode === 'in-process');
    });

    it('is 401 with a wrong internal token', async () => {
      const res = await call('GET', '/api/echo/1', undefined, 'not-the-token');
      assert.equal(res.status, 401);
    });

    it('sends a JSON body as application/json, readable once', async () => {
      const res = await call('POST', '/api/json', { a: [1, 'ü'] });
      assert.equal(res.status, 200);
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body.type, 'application/json');
      assert.deepEqual(body.body, { a: [1, 'ü'] });
      assert.notEqual(body.again, 'read twice');
    });

    it('passes a stream body on as it arrives', async () => {
      const res = await callService(clients[mode]!(), {
        method: 'POST',
        path: '/api/stream',
        internalToken: TOKEN,
        principal,
        ids,
        headers: { 'content-type': 'text/plain' },
        body: streamOf('one ', 'two'),
      });
      assert.deepEqual(await res.json(), { text: 'one two' });
    });
  });
}

describe('service app reached from outside', () => {
  it('trusts no principal without the token, whatever the headers say', async () => {
    const res = await serviceApp().fetch(
      new Request('http://service/api/echo/1', {
        headers: { [PRINCIPAL_HEADER]: Buffer.from(JSON.stringify(principal)).toString('base64url') },
      }),
    );
    assert.equal(res.status, 401);
  });
});

describe('http service client on a kept-alive connection the service closes', () => {
  /** Answers the first request of each connection and drops the connection when a second arrives on it. */
  async function oneRequestPerConnection() {
    const seen = new WeakMap<object, number>();
    const answered: string[] = [];
    const server = createServer((req, res) => {
      const count = (seen.get(req.socket) ?? 0) + 1;
      seen.set(req.socket, count);
      if (count > 1) {
        req.socket.destroy();
        return;
      }
      req.resume();
      req.on('end', () => {
        answered.push(`${req.method} ${req.url}`);
        res.end(JSON.stringify({ ok: true }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { client: httpClient(`http://127.0.0.1:${port}`), answered, close: () => server.close() };
  }

  it('sends a GET once more on a new connection, so a read is answered', async () => {
    const service = await oneRequestPerConnection();
    after(service.close);
    for (const path of ['/first', '/second']) {
      const res = await service.client.send({ method: 'GET', path, headers: {} });
      assert.equal(res.status, 200, path);
      await res.text();
    }
    assert.deepEqual(service.answered, ['GET /first', 'GET /second']);
  });

  it('never sends a POST twice: it is 503', async () => {
    const service = await oneRequestPerConnection();
    after(service.close);
    const first = await service.client.send({ method: 'GET', path: '/first', headers: {} });
    await first.text();
    await assert.rejects(
      service.client.send({ method: 'POST', path: '/change', headers: {}, body: '{}' }),
      (error: Error & { status?: number }) => error.status === 503,
    );
    assert.deepEqual(service.answered, ['GET /first']);
  });
});
