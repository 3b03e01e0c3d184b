/**
 * `/console` at the gateway: the page and its bundled assets without a key, with a strict CSP, no CDN,
 * kept out of the API document and inside the route table (405 with Allow, 404 for unknown files).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEmbedded, type Target } from '../support/targets';

describe('web console route [embedded]', { timeout: 120_000 }, () => {
  let target: Target;
  before(async () => {
    target = await startEmbedded();
  });
  after(() => target?.stop());

  it('serves the page without a key, with a CSP that allows no inline code and no other origin', async () => {
    const res = await fetch(`${target.baseUrl}/console`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
    const html = await res.text();
    assert.doesNotMatch(html, /<script>|<style>|https?:\/\//, 'no inline code, nothing from elsewhere');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.deepEqual(assets.sort(), ['/console/assets/console.css', '/console/assets/console.js']);
  });

  it('serves the bundled script and styles (built from the sources) without a key', async () => {
    const js = await fetch(`${target.baseUrl}/console/assets/console.js`);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /^text\/javascript/);
    const code = await js.text();
    assert.ok(code.includes('/api/v2/docForm/view/inbox'), 'the console calls the API');
    assert.doesNotMatch(code, /https?:\/\/(?!www\.w3\.org)[a-z]/i, 'no asset from another origin');
    const css = await fetch(`${target.baseUrl}/console/assets/console.css`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
  });

  it('an unknown file is 404 and another method 405 with Allow, both as problem+json', async () => {
    const missing = await fetch(`${target.baseUrl}/console/assets/other.js`);
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type') ?? '', /application\/problem\+json/);
    const post = await fetch(`${target.baseUrl}/console`, { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
  });

  it('is not part of the API document', async () => {
    const doc = (await (await fetch(`${target.baseUrl}/openapi.json`)).json()) as { paths: object };
    assert.ok(Object.keys(doc.paths).length > 10);
    assert.deepEqual(
      Object.keys(doc.paths).filter((p) => p.startsWith('/console')),
      [],
    );
  });
});
