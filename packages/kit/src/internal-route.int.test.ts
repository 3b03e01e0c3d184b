/**
 * One internal route object, both sides: the service registers its handler with `serveInternal`, the
 * caller reaches it with `internalClient` (in-process and over HTTP): the path filled in from the
 * params, the query and body sent, the answer parsed by the route's output, a problem thrown as given.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { INTERNAL_PATHS, internalRoute } from '@docflow/contracts';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { z } from 'zod';
import { internalClient } from './internal-client';
import { serveInternal } from './internal-handler';
import { type Principal, trustGatewayPrincipal } from './principal';
import { handleError, ProblemError } from './problem';
import type { ServiceEnv } from './service-app';
import { httpClient, inProcessClient, type ServiceClient } from './service-client';

const TOKEN = 'internal-token-of-this-test';
const ctx = {
  principal: { account: 'usr-a', subject: 'usr-a', roles: [] } satisfies Principal,
  ids: { requestId: 'req-1', correlationId: 'cor-1' },
};

const echoRoute = internalRoute({
  method: 'post',
  path: '/internal/v1/echo/{name}',
  params: z.object({ name: z.string().max(8) }),
  query: z.object({ times: z.coerce.number().int().min(1).default(1) }),
  body: z.object({ word: z.string() }),
  output: z.object({ said: z.string(), by: z.string() }),
  status: 201,
  problems: [400],
});
const forgetRoute = internalRoute({
  method: 'delete',
  path: '/internal/v1/echo/{name}',
  params: z.object({ name: z.string() }),
  output: 'empty',
  problems: [404],
});

function serviceApp() {
  const app = new Hono<ServiceEnv>();
  app.onError(handleError);
  app.use(INTERNAL_PATHS, trustGatewayPrincipal(TOKEN));
  serveInternal(app, echoRoute, (c, { params, query, body }) => ({
    said: `${params.name}: ${body.word.repeat(query.times)}`,
    by: c.var.principal.subject,
  }));
  serveInternal(app, forgetRoute, () => {});
  return app;
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

const refusal = async (call: Promise<unknown>) => {
  const error = await call.then(
    () => assert.fail('answered'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ProblemError);
  return error;
};

for (const mode of ['in-process', 'http'] as const) {
  describe(`an internal route, ${mode}`, () => {
    const client = () => internalClient(clients[mode]!(), TOKEN);

    it('takes its params (encoded), query and body, and answers its parsed output as the principal', async () => {
      const input = { params: { name: 'a b/c' }, query: { times: 2 }, body: { word: 'hi' } };
      assert.deepEqual(await client().call(echoRoute, input, ctx), { said: 'a b/c: hihi', by: 'usr-a' });
      const res = await client().send(echoRoute, input, ctx);
      assert.equal(res.status, 201);
    });

    it('answers an empty route with 204, and the call with nothing', async () => {
      assert.equal(await client().call(forgetRoute, { params: { name: 'x' } }, ctx), undefined);
      assert.equal((await client().send(forgetRoute, { params: { name: 'x' } }, ctx)).status, 204);
    });

    it('refuses an invalid param, query or body with 400 at its pointer, thrown to the caller as given', async () => {
      const cases = [
        [{ params: { name: 'too-long-a-name' }, body: { word: 'hi' } }, 'path.name'],
        [{ params: { name: 'a' }, query: { times: 0 }, body: { word: 'hi' } }, 'query.times'],
        [{ params: { name: 'a' }, body: { word: 1 as unknown as string } }, 'body.word'],
      ] as const;
      for (const [input, pointer] of cases) {
        const problem = await refusal(client().call(echoRoute, input, ctx));
        assert.equal(problem.status, 400);
        assert.deepEqual(
          problem.errors?.map((e) => e.pointer),
          [pointer],
        );
      }
    });

    it('is refused without the internal token', async () => {
      const stranger = internalClient(clients[mode]!(), 'not-the-token');
      const problem = await refusal(stranger.call(forgetRoute, { params: { name: 'x' } }, ctx));
      assert.equal(problem.status, 401);
    });
  });
}
