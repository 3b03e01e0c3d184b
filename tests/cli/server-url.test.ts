/**
 * `--url` / DOCFLOW_URL without a scheme (issue 29, finding 11): `docflow --url 127.0.0.1:8080 …` ended
 * with a Node stack trace. Anything but an http:// or https:// URL is a usage error (exit code 2) that
 * says what to give; no request is made, so no server is needed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { docflow, type Run } from './run-docflow';

const GET_ACCOUNT = ['accounts', 'get', 'usr-00000000-0000-4000-8000-000000000001'];

function assertUsageError(run: Run, url: string) {
  assert.equal(run.status, 2, run.stderr);
  assert.equal(run.stdout, '');
  assert.equal(
    run.stderr,
    `docflow: --url (DOCFLOW_URL) must be an http:// or https:// URL, e.g. http://127.0.0.1:8080; got ${JSON.stringify(url)}\n`,
  );
}

describe('docflow --url must be an http(s) URL', () => {
  for (const url of ['127.0.0.1:8080', 'localhost:8080', 'docflow.example', 'ftp://127.0.0.1:8080'])
    it(`--url ${url}: a usage error (exit 2), no stack trace`, async () => {
      assertUsageError(await docflow(['--url', url, '--key', 'k', ...GET_ACCOUNT]), url);
    });

  it('DOCFLOW_URL=127.0.0.1:8080: the same', async () => {
    const run = await docflow(GET_ACCOUNT, { env: { DOCFLOW_URL: '127.0.0.1:8080', DOCFLOW_KEY: 'k' } });
    assertUsageError(run, '127.0.0.1:8080');
  });
});
