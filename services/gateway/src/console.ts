/**
 * `/console`: the web console's page and its bundled assets, open without a key (they hold no data;
 * the page calls the API with the key the user signs in with). Not part of the API document.
 *
 * The console's one form, the sign-out of a single sign-on session, posts to this site and is
 * redirected to the provider's end-session endpoint; Chromium holds the redirects of a form to
 * `form-action` too, so the CSP names the origins of the configured providers' issuers (where their
 * end-session endpoints lie).
 */
import { CONSOLE_CSP, CONSOLE_PAGE, consoleAssets } from '@docflow/console';
import { problems } from '@docflow/kit/http';
import { Hono } from 'hono';
import { pageSecurityHeaders } from './page-headers';

export function consoleRoutes(providerOrigins: readonly string[] = []): Hono {
  const app = new Hono();
  const formAction = [...CONSOLE_CSP.formAction, ...new Set(providerOrigins)];
  app.use('/console/*', pageSecurityHeaders({ ...CONSOLE_CSP, formAction }, { sameOriginReferrer: true }));
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
