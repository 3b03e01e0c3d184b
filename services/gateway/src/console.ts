/**
 * `/console`: the web console's page and its bundled assets, open without a key (they hold no data;
 * the page calls the API with the key the user signs in with). Not part of the API document.
 */
import { CONSOLE_CSP, CONSOLE_PAGE, consoleAssets } from '@docflow/console';
import { problems } from '@docflow/kit/http';
import { Hono } from 'hono';
import { pageSecurityHeaders } from './page-headers';

export function consoleRoutes(): Hono {
  const app = new Hono();
  app.use('/console/*', pageSecurityHeaders(CONSOLE_CSP));
  app.get('/console', (c) => c.html(CONSOLE_PAGE, 200, { 'cache-control': 'no-cache' }));
  app.get('/console/assets/:file', async (c) => {
    const asset = (await consoleAssets()).get(c.req.param('file'));
    if (!asset) throw problems.notFound(`the console has no file ${c.req.param('file')}`);
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, {
      'content-type': asset.type,
      'cache-control': 'no-cache',
    });
  });
  return app;
}
