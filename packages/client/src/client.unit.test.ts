/**
 * The client over a fake fetch: credentials and run-as on every call, the multipart body streamed from
 * a stream source and parseable as form data, refusals thrown as `DocflowProblem`, and paging by
 * `svc-total-count`.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { createDocflowClient } from './client';
import { DocflowProblem } from './problem';

const doc = (i: number) => ({ _id: `doc${i}` });

function fakeServer(answer: (request: Request) => Promise<Response> | Response) {
  const seen: Request[] = [];
  const fetch = async (request: Request) => {
    seen.push(request);
    return answer(request);
  };
  return { seen, fetch };
}

describe('docflow client', () => {
  it('sends the API key, and svc-run-as once `as` names a user', async () => {
    const server = fakeServer(() => Response.json({ status: 'ok' }));
    const client = createDocflowClient({ baseUrl: 'http://docflow.test', apiKey: 'k1', fetch: server.fetch });
    await client.api.GET('/healthz');
    await client.as('bob@example.com').api.GET('/healthz');
    assert.equal(server.seen[0]!.headers.get('authorization'), 'Bearer k1');
    assert.equal(server.seen[0]!.headers.get('svc-run-as'), null);
    assert.equal(server.seen[1]!.headers.get('svc-run-as'), 'bob@example.com');
  });

  it('streams a multipart create: JSON parts and files from a Node stream and a web stream', async () => {
    let form: FormData | undefined;
    const server = fakeServer(async (request) => {
      form = await request.formData();
      return Response.json(doc(1), { status: 201 });
    });
    const client = createDocflowClient({ baseUrl: 'http://docflow.test', apiKey: 'k', fetch: server.fetch });
    const created = await client.createDocument('memo', {
      docForm: { valuesByTags: { subject: 'Budget' }, _tags: [] },
      files: [
        { name: 'a "quoted".txt', content: Readable.from([Buffer.from('hello '), Buffer.from('world')]) },
        { name: 'b.bin', content: new Blob([new Uint8Array([1, 2, 3])]).stream(), type: 'image/png' },
      ],
      idempotencyKey: 'k-1',
    });
    assert.deepEqual(created, doc(1));
    assert.equal(server.seen[0]!.headers.get('idempotency-key'), 'k-1');
    assert.deepEqual(JSON.parse(String(form!.get('docForm'))), {
      valuesByTags: { subject: 'Budget' },
      _tags: [],
    });
    assert.equal(form!.get('docResponse'), null);
    const [a, b] = form!.getAll('files') as File[];
    assert.equal(await a!.text(), 'hello world');
    assert.equal(a!.name, 'a "quoted".txt'); // escaped as browsers do, read back by the form-data parser
    assert.deepEqual([...new Uint8Array(await b!.arrayBuffer())], [1, 2, 3]);
    assert.equal(b!.type, 'image/png');
  });

  it('throws a refusal as DocflowProblem with the problem, its status and Retry-After', async () => {
    const server = fakeServer(() =>
      Response.json(
        { type: 'https://docflow.dev/problems/unavailable', title: 'Service Unavailable', status: 503 },
        { status: 503, headers: { 'content-type': 'application/problem+json', 'retry-after': '5' } },
      ),
    );
    const client = createDocflowClient({ baseUrl: 'http://docflow.test', apiKey: 'k', fetch: server.fetch });
    const error = await client.api
      .GET('/api/v2/docForm/{id}', { params: { path: { id: '6b04e41bbb86ad8e68ce8568' } } })
      .catch((e: unknown) => e);
    assert.ok(error instanceof DocflowProblem);
    assert.equal(error.status, 503);
    assert.equal(error.problem.type, 'https://docflow.dev/problems/unavailable');
    assert.equal(error.retryAfterSeconds, 5);
  });

  it('pages through a view until svc-total-count', async () => {
    const all = Array.from({ length: 7 }, (_, i) => doc(i));
    const server = fakeServer((request) => {
      const url = new URL(request.url);
      const first = Number(url.searchParams.get('first') ?? 0);
      const size = Number(url.searchParams.get('pageSize') ?? 10);
      return Response.json(all.slice(first, first + size), { headers: { 'svc-total-count': '7' } });
    });
    const client = createDocflowClient({ baseUrl: 'http://docflow.test', apiKey: 'k', fetch: server.fetch });
    const seen = [];
    for await (const d of client.viewAll('all', { pageSize: 3 })) seen.push(d);
    assert.deepEqual(seen, all);
    assert.equal(server.seen.length, 3);
  });
});
