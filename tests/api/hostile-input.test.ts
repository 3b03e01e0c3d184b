/**
 * Bad input as an attacker with an ordinary account would send it (issue 11): every case answers its
 * exact status, keeps nothing it should not, and leaves the service answering `/healthz`.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createDoc, createPerson } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { peakMiB } from '../support/process';
import { type Target, targets } from '../support/targets';

const MAX_CREATE_BYTES = 1024 * 1024;
const MAX_JSON_BYTES = 256 * 1024;
const AUTH_FAILURES_PER_MINUTE = 20;
const CONSOLE_ORIGIN = 'https://console.example';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request written as it is (no client-side framing help), answered even if the server stops reading. */
function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer | AsyncIterable<Buffer>,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    // A server that answered early may close before the body is through: the answer is what counts.
    req.on('error', (err) => setTimeout(() => reject(err), 1000));
    if (body === undefined) req.end();
    else if (Buffer.isBuffer(body)) req.end(body);
    else
      (async () => {
        for await (const chunk of body) if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
        req.end();
      })().catch(() => req.destroy());
  });
}

/** The service still answers, within a bound, after whatever came before. */
async function assertAlive(target: Target) {
  const res = await fetch(`${target.baseUrl}/healthz`, { signal: AbortSignal.timeout(5000) });
  assert.equal(res.status, 200, 'healthz after the hostile request');
}

function assertProblem(answer: { status: number; text: string }, status: number, detail?: RegExp) {
  assert.equal(answer.status, status, answer.text);
  const body = JSON.parse(answer.text);
  assert.equal(body.status, status);
  if (detail) assert.match(body.detail, detail);
}

for (const factory of targets({
  env: {
    DOCFLOW_MAX_CREATE_BYTES: String(MAX_CREATE_BYTES),
    DOCFLOW_MAX_JSON_BYTES: String(MAX_JSON_BYTES),
    DOCFLOW_AUTH_FAILURES_PER_MINUTE: String(AUTH_FAILURES_PER_MINUTE),
    DOCFLOW_CORS_ORIGINS: CONSOLE_ORIGIN,
  },
})) {
  describe(`hostile input [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let api: Api;
    /** A service account holding no role at all: what any client has. */
    let anyKey: string;
    let docId: string;
    const auth = () => ({ authorization: `Bearer ${anyKey}` });
    const multipartHeaders = (boundary: string) => ({
      ...auth(),
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
    const createRaw = (body: string, boundary = 'B') =>
      rawRequest(
        target.baseUrl,
        'POST',
        '/api/v2/docForm/form/contract',
        multipartHeaders(boundary),
        Buffer.from(body, 'latin1'),
      );

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      const svc = await api('POST', '/api/admin/v1/accounts', {
        key: target.adminKey,
        body: {
          kind: 'service',
          email: 'nobody@example.com',
          name_first: 'No',
          name_last: 'Roles',
          roles: [],
        },
      });
      assert.equal(svc.status, 201, svc.text);
      anyKey = svc.body.apiKey;
      await createPerson(api, target.adminKey, 'erin@example.com');
      const doc = await createDoc(target.baseUrl, anyKey, 'contract', { docForm: { _tags: ['t'] } });
      assert.equal(doc.status, 201, doc.text);
      docId = doc.body._id;
    });
    after(() => target?.stop());

    describe('multipart create', () => {
      it('400 for a body that stops after a files part without its closing boundary (it ended the process)', async () => {
        const res = await createRaw(
          '--B\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nhello\r\n',
        );
        assertProblem(res, 400, /ended inside a part/);
        await assertAlive(target);
      });

      it('400 for a part with no Content-Disposition, and for a files header broken by a raw CRLF', async () => {
        const noDisposition = await createRaw('--B\r\nContent-Type: text/plain\r\n\r\nhello\r\n--B--\r\n');
        assertProblem(noDisposition, 400, /Content-Disposition/);
        const broken = await createRaw(
          '--B\r\nContent-Disposition: form-data; name="files"; filename="a\r\nb.txt"\r\n\r\nhello\r\n--B--\r\n',
        );
        assertProblem(broken, 400);
        const notFormData = await createRaw(
          '--B\r\nContent-Disposition: attachment; name="files"; filename="a.txt"\r\n\r\nhello\r\n--B--\r\n',
        );
        assertProblem(notFormData, 400, /Content-Disposition/);
        await assertAlive(target);
      });

      it('400 for a file name holding a lone surrogate (it was a 500)', async () => {
        const res = await createRaw(
          '--B\r\nContent-Disposition: form-data; name="files"; filename*=utf-16le\'\'%00%D8\r\n\r\nhello\r\n--B--\r\n',
        );
        assertProblem(res, 400, /well-formed Unicode/);
        await assertAlive(target);
      });

      it('keeps no file of a refused create (invalid docForm after five files)', async () => {
        const before = await target.blobCount();
        const files = Array.from({ length: 5 }, (_, i) => ({
          name: `part${i}.bin`,
          content: randomBytes(100 * 1024),
        }));
        const res = await createDoc(target.baseUrl, anyKey, 'contract', {
          files,
          rawDocForm: '{"valuesByTags": 5}',
        });
        assertProblem(res, 400);
        assert.equal(await target.blobCount(), before, 'the refused files were removed');
        await assertAlive(target);
      });

      it('keeps no file when a later part is broken, nor when another author is named without the role', async () => {
        const before = await target.blobCount();
        const content = randomBytes(64 * 1024).toString('latin1');
        const brokenLater = await createRaw(
          `--B\r\nContent-Disposition: form-data; name="files"; filename="ok.bin"\r\n\r\n${content}\r\n` +
            '--B\r\nContent-Type: text/plain\r\n\r\nno disposition\r\n--B--\r\n',
        );
        assertProblem(brokenLater, 400);
        const otherAuthor = await createDoc(target.baseUrl, anyKey, 'contract', {
          files: [{ name: 'x.bin', content: randomBytes(10_000) }],
          docForm: { author: 'usr-00000000-0000-0000-0000-000000000001' },
        });
        assertProblem({ status: otherAuthor.status, text: otherAuthor.text }, 403);
        assert.equal(await target.blobCount(), before);
      });

      it('413 once the files of one create exceed DOCFLOW_MAX_CREATE_BYTES, keeping none of them', async () => {
        const before = await target.blobCount();
        const res = await createDoc(target.baseUrl, anyKey, 'contract', {
          files: Array.from({ length: 3 }, (_, i) => ({
            name: `big${i}.bin`,
            content: randomBytes(400 * 1024),
          })),
        });
        assertProblem({ status: res.status, text: res.text }, 413, /at most 1048576 bytes/);
        assert.equal(await target.blobCount(), before);
        await assertAlive(target);
      });

      it('413 for a JSON part over 1 MiB, 400 for unknown parts and malformed headers (these held)', async () => {
        const big = await createDoc(target.baseUrl, anyKey, 'contract', {
          rawDocForm: `{"_tags":["${'x'.repeat(MAX_CREATE_BYTES)}"]}`,
        });
        assert.ok([413].includes(big.status), big.text);
        assertProblem(
          await createRaw('--B\r\nContent-Disposition: form-data; name="evil"\r\n\r\nx\r\n--B--\r\n'),
          400,
        );
        const noBoundary = await rawRequest(
          target.baseUrl,
          'POST',
          '/api/v2/docForm/form/contract',
          { ...auth(), 'content-type': 'multipart/form-data; charset=utf-8' },
          Buffer.from('x'),
        );
        assert.ok([400, 415].includes(noBoundary.status), noBoundary.text);
        await assertAlive(target);
      });
    });

    describe('JSON bodies', () => {
      const answerPath = () => `/api/v2/docForm/${docId}/docResponse/${'0'.repeat(24)}`;

      it('413 before the body is read past DOCFLOW_MAX_JSON_BYTES, with and without Content-Length', async () => {
        const body = Buffer.from(
          `{"docResponse":{"taskstatus":2,"content":"${'a'.repeat(MAX_JSON_BYTES)}"}}`,
        );
        const sized = await rawRequest(
          target.baseUrl,
          'PUT',
          answerPath(),
          { ...auth(), 'content-type': 'application/json', 'content-length': String(body.length) },
          body,
        );
        assertProblem(sized, 413);
        async function* chunked() {
          for (let i = 0; i < body.length; i += 16 * 1024) yield body.subarray(i, i + 16 * 1024);
        }
        const streamed = await rawRequest(
          target.baseUrl,
          'PUT',
          answerPath(),
          { ...auth(), 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
          chunked(),
        );
        assertProblem(streamed, 413);
        const account = await rawRequest(
          target.baseUrl,
          'POST',
          '/api/v2/person',
          { ...auth(), 'content-type': 'application/json' },
          Buffer.from(
            `{"_id_sys":"usr-00000000-0000-0000-0000-000000000001","unit":"${'u'.repeat(70_000)}"}`,
          ),
        );
        assertProblem(account, 413);
        await assertAlive(target);
      });

      it('12 concurrent 40 MB bodies leave the edge far below what buffering them would take', async () => {
        const chunk = Buffer.alloc(256 * 1024, 0x61);
        const head = Buffer.from('{"docResponse":{"taskstatus":2,"content":"');
        const tail = Buffer.from('"}}');
        const chunks = 160; // 40 MiB
        async function* huge() {
          yield head;
          for (let i = 0; i < chunks; i++) yield chunk;
          yield tail;
        }
        const length = head.length + chunks * chunk.length + tail.length;
        const answers = await Promise.all(
          Array.from({ length: 12 }, () =>
            rawRequest(
              target.baseUrl,
              'PUT',
              answerPath(),
              { ...auth(), 'content-type': 'application/json', 'content-length': String(length) },
              huge(),
            ).catch((err: NodeJS.ErrnoException) => {
              assert.ok(['EPIPE', 'ECONNRESET'].includes(err.code ?? ''), String(err));
              return { status: 0, headers: {}, text: '' };
            }),
          ),
        );
        // The edge answers 413 from the declared length and closes without reading: a client still
        // writing may lose that answer to the reset (EPIPE). Either way nothing of the body was kept.
        for (const answer of answers) if (answer.status !== 0) assertProblem(answer, 413);
        const edge = target.pids().docflow ?? target.pids().gateway!;
        // 480 MB of bodies: buffered, they alone would take the process past this.
        assert.ok(peakMiB(edge) < 400, `the edge peaked at ${peakMiB(edge)} MiB`);
        await assertAlive(target);
      });

      it('400 for invalid UTF-8 (it became U+FFFD), for deep nesting and for malformed JSON', async () => {
        const invalid = await rawRequest(
          target.baseUrl,
          'PUT',
          answerPath(),
          { ...auth(), 'content-type': 'application/json' },
          Buffer.concat([
            Buffer.from('{"docResponse":{"taskstatus":2,"content":"'),
            Buffer.from([0xff, 0xfe]),
            Buffer.from('"}}'),
          ]),
        );
        assertProblem(invalid, 400, /UTF-8/);
        const depth = 50_000;
        const nested = await api('PUT', `/api/v2/docForm/${docId}/recoData/${'0'.repeat(24)}`, {
          key: anyKey,
          raw: `{"valuesByTags":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
          headers: { 'content-type': 'application/json' },
        });
        assertProblem(nested, 400);
        const malformed = await api('POST', `/api/v2/docForm/${docId}/docResponse`, {
          key: anyKey,
          raw: '{"docResponse":',
          headers: { 'content-type': 'application/json' },
        });
        assertProblem(malformed, 400);
        await assertAlive(target);
      });
    });

    describe('requests', () => {
      it('400 for an empty svc-run-as (it ran as the service account)', async () => {
        const res = await api('GET', `/api/v2/docForm/${docId}`, {
          key: anyKey,
          headers: { 'svc-run-as': '' },
        });
        assertProblem(res, 400, /svc-run-as/);
      });

      it('405 with Allow for a known path and another method (it was 404)', async () => {
        const res = await api('DELETE', '/api/v2/docForm/view/all', { key: anyKey });
        assertProblem(res, 405);
        assert.equal(res.headers.get('allow'), 'GET, HEAD');
        const doc = await api('PATCH', `/api/v2/docForm/${docId}/docResponse`, {
          key: anyKey,
          body: {},
        });
        assertProblem(doc, 405);
        assert.equal(doc.headers.get('allow'), 'POST');
        assertProblem(await api('GET', '/api/v2/nothing-here', { key: anyKey }), 404);
      });

      it('a CORS preflight is answered without credentials (it was 401); OPTIONS gives Allow', async () => {
        const preflight = await fetch(`${target.baseUrl}/api/v2/docForm/view/inbox`, {
          method: 'OPTIONS',
          headers: {
            origin: CONSOLE_ORIGIN,
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'authorization, svc-run-as',
          },
        });
        assert.equal(preflight.status, 204);
        assert.equal(preflight.headers.get('access-control-allow-origin'), CONSOLE_ORIGIN);
        assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /svc-run-as/i);
        const foreign = await fetch(`${target.baseUrl}/api/v2/docForm/view/inbox`, {
          method: 'OPTIONS',
          headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
        });
        assert.notEqual(foreign.headers.get('access-control-allow-origin'), 'https://evil.example');
        const get = await fetch(`${target.baseUrl}/api/v2/docForm/${docId}`, {
          headers: { origin: CONSOLE_ORIGIN, ...auth() },
        });
        assert.equal(get.status, 200);
        assert.equal(get.headers.get('access-control-allow-origin'), CONSOLE_ORIGIN);
        assert.match(get.headers.get('access-control-expose-headers') ?? '', /svc-total-count/);
      });

      it('404 for traversal ids and encoded slashes (these held)', async () => {
        for (const path of [
          '/api/v2/docForm/..%2F..%2F..%2Fetc%2Fpasswd',
          `/api/v2/docForm/${docId}/file/..%2F..%2Fevents.db`,
          '/api/v2/docForm/%2e%2e%2f%2e%2e%2fidentity',
        ]) {
          const res = await api('GET', path, { key: anyKey });
          assert.ok([400, 404].includes(res.status), `${path}: ${res.status} ${res.text}`);
        }
        await assertAlive(target);
      });

      it('431 for oversized headers and nothing for a body cut off mid-way (these held)', async () => {
        const big = await fetch(`${target.baseUrl}/api/v2/docForm/view/all`, {
          headers: { ...auth(), 'x-padding': 'p'.repeat(64 * 1024) },
        }).catch(() => undefined);
        if (big) assert.equal(big.status, 431);
        const url = new URL(target.baseUrl);
        await new Promise<void>((resolve) => {
          const socket = connect(Number(url.port), url.hostname, () => {
            socket.write(
              `PUT /api/v2/docForm/${docId}/docResponse/${'0'.repeat(24)} HTTP/1.1\r\nHost: x\r\n` +
                `authorization: Bearer ${anyKey}\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{"docR`,
            );
            setTimeout(() => socket.destroy(), 200);
          });
          socket.on('close', () => resolve());
          socket.on('error', () => resolve());
        });
        await assertAlive(target);
      });

      // Last: it uses up this address's failures for the minute.
      it('429 with Retry-After once an address failed authentication too often, before the key is checked', async () => {
        const statuses: number[] = [];
        for (let i = 0; i <= AUTH_FAILURES_PER_MINUTE; i++)
          statuses.push((await api('GET', '/api/v2/docForm/view/all', { key: `guess-${i}` })).status);
        assert.deepEqual(
          statuses.slice(0, AUTH_FAILURES_PER_MINUTE),
          Array(AUTH_FAILURES_PER_MINUTE).fill(401),
        );
        const braked = await api('GET', '/api/v2/docForm/view/all', { key: anyKey });
        assertProblem(braked, 429);
        assert.ok(Number(braked.headers.get('retry-after')) > 0);
        await assertAlive(target);
      });
    });
  });
}
