/** Request ids on every response (built by the context or handed over whole) and the access-log level. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { Hono } from 'hono';
import { pino } from 'pino';
import {
  type AccessLogLevel,
  CORRELATION_ID_HEADER,
  REQUEST_ID_HEADER,
  requestContext,
} from './request-context';

function appLogging(level: AccessLogLevel) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = new Hono();
  app.use(requestContext(pino({ level: 'info' }, sink), level));
  app.get('/built', (c) => c.json({ ok: true }));
  // A response made elsewhere, as the gateway passes on what a service answered.
  app.get('/handed-over', () => new Response('{}', { headers: { 'content-type': 'application/json' } }));
  // Headers that cannot be changed.
  app.get('/immutable', () => Response.redirect('http://localhost/elsewhere', 302));
  return { app, lines };
}

describe('requestContext', () => {
  for (const path of ['/built', '/handed-over', '/immutable']) {
    it(`echoes the incoming ids on a ${path.slice(1)} response`, async () => {
      const { app } = appLogging('info');
      const res = await app.request(path, {
        headers: { [REQUEST_ID_HEADER]: 'req-1', [CORRELATION_ID_HEADER]: 'corr-1' },
      });
      assert.equal(res.status, path === '/immutable' ? 302 : 200);
      assert.equal(res.headers.get(REQUEST_ID_HEADER), 'req-1');
      assert.equal(res.headers.get(CORRELATION_ID_HEADER), 'corr-1');
    });
  }

  it('makes a request id when the incoming one is missing or unsafe, and correlates by it', async () => {
    const { app } = appLogging('info');
    const res = await app.request('/built', { headers: { [REQUEST_ID_HEADER]: 'not a safe id!' } });
    const id = res.headers.get(REQUEST_ID_HEADER);
    assert.match(id ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(res.headers.get(CORRELATION_ID_HEADER), id);
  });

  it('writes one access line at info, none at info when the level is debug', async () => {
    const atInfo = appLogging('info');
    await atInfo.app.request('/built', { headers: { [REQUEST_ID_HEADER]: 'req-2' } });
    assert.equal(atInfo.lines.length, 1);
    assert.deepEqual(
      { msg: atInfo.lines[0]!.msg, status: atInfo.lines[0]!.status, requestId: atInfo.lines[0]!.requestId },
      { msg: 'request', status: 200, requestId: 'req-2' },
    );
    const atDebug = appLogging('debug');
    await atDebug.app.request('/built');
    assert.equal(atDebug.lines.length, 0);
  });
});
