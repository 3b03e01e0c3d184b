/**
 * The web pages' security headers (issue 29, finding 8): `/docs` and `/console`, their pages and their
 * files, carry a Content-Security-Policy with no inline code and no other origin, are never framed,
 * `nosniff` and no referrer to another site; Swagger UI keeps no key (no persistAuthorization). The API beside them
 * gets none of it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hono } from 'hono';
import { consoleRoutes } from './console';
import { docsRoutes } from './docs';

const app = new Hono();
app.route('/', docsRoutes());
app.route('/', consoleRoutes());
app.get('/api/v2/other', (c) => c.json({}));

const PAGES = [
  '/docs',
  '/docs/assets/docs.js',
  '/docs/assets/swagger-ui-bundle.js',
  '/docs/assets/swagger-ui.css',
  '/console',
  '/console/assets/console.js',
  '/console/assets/console.css',
];

describe('security headers of the web pages', () => {
  for (const path of PAGES)
    it(`${path}: CSP, never framed, nosniff, no referrer to another site`, async () => {
      const res = await app.request(path);
      assert.equal(res.status, 200);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:|\*/);
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      // The console's sign-out form posts to its own site, which needs its Origin (see page-headers.ts).
      const referrer = path.startsWith('/console') ? 'same-origin' : 'no-referrer';
      assert.equal(res.headers.get('referrer-policy'), referrer);
    });

  it('/docs: no inline script, only files of its own', async () => {
    const html = await (await app.request('/docs')).text();
    assert.doesNotMatch(html, /<script>|<style>|https?:\/\//);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(assets.sort(), [
      '/docs/assets/docs.js',
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/swagger-ui.css',
    ]);
  });

  it('Swagger UI keeps no key: no persistAuthorization, no validator badge from swagger.io', async () => {
    const start = await (await app.request('/docs/assets/docs.js')).text();
    assert.match(start, /SwaggerUIBundle\(/);
    assert.doesNotMatch(start, /persistAuthorization/);
    assert.match(start, /validatorUrl: null/);
  });

  it('the API beside them gets none of it', async () => {
    const res = await app.request('/api/v2/other');
    assert.equal(res.headers.get('content-security-policy'), null);
    assert.equal(res.headers.get('x-frame-options'), null);
  });
});
