/** `/docs`: Swagger UI over `/openapi.json`, its assets served from the installed package (no CDN). */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>docflow API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', persistAuthorization: true });</script>
</body></html>`;

export function docsRoutes(): Hono {
  const assetDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const app = new Hono();
  app.get('/docs', (c) => c.html(PAGE));
  app.get('/docs/assets/:file', async (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    if (!type) return c.notFound();
    const body = await readFile(join(assetDir, file));
    return c.body(body, 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
  });
  return app;
}
