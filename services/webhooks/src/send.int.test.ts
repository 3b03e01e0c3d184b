/** One delivery attempt against a real HTTP server on 127.0.0.1. */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { sendSigned } from './send';
import { parseAllowList } from './target-guard';

const SECRET = `whsec_${Buffer.from('a test secret of thirty-two bytes').toString('base64')}`;

describe('sending one webhook', () => {
  const seen: Array<{ path: string; verified: unknown }> = [];
  const held: ServerResponse[] = [];
  let base = '';
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    let verified: unknown;
    try {
      verified = new Webhook(SECRET).verify(body, req.headers as Record<string, string>);
    } catch (error) {
      verified = (error as Error).message;
    }
    seen.push({ path: req.url ?? '', verified });
    if (req.url === '/ok') res.writeHead(204).end();
    else if (req.url === '/moved') res.writeHead(302, { location: `${base}/ok` }).end();
    else if (req.url === '/slow') held.push(res);
    else res.writeHead(500).end();
  });
  const allow = parseAllowList(['127.0.0.1']);
  const send = (path: string, options = { allow, timeoutMs: 5000 }) =>
    sendSigned(
      { url: `${base}${path}`, secret: SECRET, webhookId: 'msg_1', payload: '{"type":"x"}' },
      options,
    );

  before(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    for (const res of held) res.destroy();
    server.close();
  });

  it('posts a body whose Standard Webhooks signature verifies, and reports the status', async () => {
    assert.deepEqual(await send('/ok'), { status: 204 });
    assert.deepEqual(seen.at(-1), { path: '/ok', verified: { type: 'x' } });
    assert.deepEqual(await send('/fail'), { status: 500 });
  });

  it('does not follow a redirect', async () => {
    const before = seen.length;
    assert.deepEqual(await send('/moved'), { status: 302 });
    assert.deepEqual(
      seen.slice(before).map((s) => s.path),
      ['/moved'],
    );
  });

  it('gives up an attempt that takes too long', async () => {
    const result = await send('/slow', { allow, timeoutMs: 200 });
    assert.equal(result.status, undefined);
    assert.match(result.error ?? '', /longer than 200 ms/);
  });

  it('does not connect to a loopback address the allow-list does not name, also behind a name', async () => {
    const before = seen.length;
    const none = parseAllowList([]);
    const literal = await send('/ok', { allow: none, timeoutMs: 5000 });
    assert.match(literal.error ?? '', /127\.0\.0\.1 is a loopback address/);
    const port = new URL(base).port;
    const named = await sendSigned(
      { url: `http://localhost:${port}/ok`, secret: SECRET, webhookId: 'msg_2', payload: '{}' },
      { allow: parseAllowList(['::1', '127.0.0.2']), timeoutMs: 5000 },
    );
    assert.match(named.error ?? '', /loopback/);
    assert.equal(seen.length, before);
  });
});
