/**
 * The floor of a GET document (issue 14), run by bench/get-document.ts as its own processes beside
 * docflow and bare Hono: what no docflow GET can leave out, in one Hono app per process on
 * @hono/node-server. Every process has kit's tracing, request-context and metrics middleware (a
 * server span when DOCFLOW_TELEMETRY is on, the ids, one access-log line). The read: the query
 * validated by the contract's `DocQuery`, one event-store query for events newer than the folded
 * state (the real SQLite adapter: the stream stays the truth), the ETag, and the document's JSON as
 * docflow answered it (FLOOR_DOC_JSON; docflow's fold cache serves it as it is while the stream does
 * not move on). Left out: the failed-auth brake, the start gate, the method and body checks, the
 * event store's own span and metrics. Logs its port as one JSON line.
 *
 * Three roles:
 * - FLOOR_API_KEY set: the embedded floor, authentication (the key's SHA-256 looked up, the role
 *   checked) and the read in one app, no gateway/service split.
 * - FLOOR_API_KEY and FLOOR_UPSTREAM set: the distributed floor's edge, authentication, then the call
 *   to the service process over HTTP (kit's `callService` on its keep-alive `httpClient`).
 * - FLOOR_INTERNAL_TOKEN set: the distributed floor's service, the internal token and principal
 *   checked (kit's `trustGatewayPrincipal`), then the read.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocQuery, docFormStream } from '@docflow/contracts';
import { createSqliteEventStore } from '@docflow/eventstore';
import { setTelemetry, telemetrySetting } from '@docflow/kit';
import {
  callService,
  httpClient,
  parseWith,
  problems,
  type ServiceEnv,
  trustGatewayPrincipal,
} from '@docflow/kit/http';
import type { Context } from 'hono';
import { floorApp, floorAuthentication, serveFloor } from './floor-app';

const json = process.env.FLOOR_DOC_JSON ?? '{}';
const parsed = JSON.parse(json) as { _id: string; _meta: { _rev: number } };
const doc = { id: parsed._id, rev: parsed._meta._rev };
const apiKey = process.env.FLOOR_API_KEY;
const upstream = process.env.FLOOR_UPSTREAM;
const internalToken = process.env.FLOOR_INTERNAL_TOKEN ?? randomUUID();
const role = upstream ? 'get-floor-edge' : apiKey ? 'get-floor' : 'get-floor-service';

setTelemetry(telemetrySetting.parse(process.env.DOCFLOW_TELEMETRY));
const app = floorApp(role);

const path = '/api/v2/docForm/:id';
if (apiKey) app.use(path, floorAuthentication(apiKey));
else app.use(path, trustGatewayPrincipal(internalToken));
const read = upstream ? undefined : await documentReader();
app.get(path, read?.handle ?? forwardTo(upstream!));

await serveFloor(app, { msg: 'get floor listening', role }, async () => read?.close());

function forwardTo(baseUrl: string) {
  const client = httpClient(baseUrl);
  return (c: Context<ServiceEnv>) => {
    return callService(client, {
      method: 'GET',
      // The benchmark's requests carry no query.
      path: c.req.path,
      internalToken,
      principal: c.get('principal'),
      ids: { requestId: c.get('requestId'), correlationId: c.get('correlationId') },
      headers: { accept: 'application/json' },
    });
  };
}

/**
 * The read, on a scratch store holding the document's stream with as many events as docflow's (never
 * read back: the query asks for newer ones); `close` removes the store.
 */
async function documentReader() {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-get-floor-'));
  const store = createSqliteEventStore({ file: join(dir, 'events.db') });
  const stream = docFormStream(doc.id);
  const filler = (i: number) => ({
    id: randomUUID(),
    type: 'Filler',
    version: 1,
    data: { i },
    metadata: { correlationId: randomUUID(), timestamp: new Date().toISOString() },
  });
  await store.append(
    stream,
    Array.from({ length: doc.rev }, (_, i) => filler(i)),
    0,
  );
  const handle = async (c: Context<ServiceEnv>) => {
    parseWith('query', DocQuery, c.req.query());
    if (c.req.param('id') !== doc.id) throw problems.notFound('no such document');
    const newer = await store.readStream(stream, { fromRevision: doc.rev + 1 });
    if (newer.length) throw new Error('the floor document changed');
    c.header('etag', `"${doc.rev}"`);
    return c.body(json, 200, { 'content-type': 'application/json' });
  };
  const close = async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { handle, close };
}
