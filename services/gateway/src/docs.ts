/**
 * `/docs`: Swagger UI over `/openapi.json`, its assets served from the installed package (no CDN), under
 * a Content-Security-Policy that allows no inline code: the page's start-up script is a file too.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';
import { type ContentSecurityPolicy, pageSecurityHeaders } from './page-headers';

const SCRIPT = 'text/javascript; charset=utf-8';
/** Files of the swagger-ui-dist package the page loads. */
const PACKAGE_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': SCRIPT,
};

/**
 * Swagger UI's start. No `persistAuthorization`: a key pasted into "Authorize" lives as long as the
 * page, never in localStorage. No `validatorUrl`: the badge would load an image from swagger.io.
 */
const START_SCRIPT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', validatorUrl: null });\n`;
const START_FILE = 'docs.js';

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>docflow API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/${START_FILE}"></script>
</body></html>`;

/**
 * What Swagger UI needs: its own files, its stylesheet's `data:` images, and calls to this origin
 * (`/openapi.json` and "Try it out"). React sets its inline styles through the DOM, which the policy
 * allows without 'unsafe-inline'.
 */
export const DOCS_CSP: ContentSecurityPolicy = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  formAction: ["'none'"],
  baseUri: ["'none'"],
};

export function docsRoutes(): Hono {
  const assetDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const app = new Hono();
  app.use('/docs/*', pageSecurityHeaders(DOCS_CSP));
  app.get('/docs', (c) => c.html(PAGE));
  app.get('/docs/assets/:file', async (c) => {
    const file = c.req.param('file');
    if (file === START_FILE) return c.body(START_SCRIPT, 200, { 'content-type': SCRIPT });
    const type = PACKAGE_ASSETS[file];
    if (!type) return c.notFound();
    const body = await readFile(join(assetDir, file));
    return c.body(body, 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
  });
  return app;
}
