/**
 * Signing in through the real Keycloak that infra/local starts (KEYCLOAK_ISSUER, the realm of
 * infra/keycloak/realm-docflow.json), driven by HTTP as a browser would: the gateway's login redirect,
 * Keycloak's own login form, the redirect back to the callback. Cookies are kept per site by hand.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

export const REALM_FILE = new URL('../../infra/keycloak/realm-docflow.json', import.meta.url);

/** A client of the committed realm, with its (local-only) secret. */
export function realmClient(clientId: string): { clientId: string; secret: string } {
  const realm = JSON.parse(readFileSync(REALM_FILE, 'utf8')) as {
    clients: { clientId: string; secret: string }[];
  };
  const client = realm.clients.find((c) => c.clientId === clientId);
  assert.ok(client, `the realm has a client ${clientId}`);
  return { clientId, secret: client.secret };
}

/** Why the Keycloak suites cannot run, or undefined when they can (or must, and then fail loudly). */
export function keycloakSkipReason(): string | undefined {
  if (process.env.KEYCLOAK_ISSUER || process.env.DOCFLOW_ENGINES_REQUIRED === '1') return undefined;
  return 'no KEYCLOAK_ISSUER: run `bash infra/local/up.sh keycloak` and load .infra/env (or `pnpm test`, which does) to run the single sign-on suite';
}

export function keycloakIssuer(): string {
  const issuer = process.env.KEYCLOAK_ISSUER;
  assert.ok(issuer, 'KEYCLOAK_ISSUER is set (infra/local/up.sh writes it to .infra/env)');
  return issuer;
}

/** Cookies by name, as a browser keeps them for one site (paths and expiry left aside). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1);
      if (value === '' || /max-age=0\b/i.test(set)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

/** One request, redirects not followed, the jar's cookies sent and the answer's taken in. */
export async function visit(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
  });
  jar.take(res);
  return res;
}

const decodeHtml = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&#x3D;/gi, '=')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

/**
 * Keycloak's login page at `authorizationUrl`, filled in and posted: Keycloak's answer (a redirect to
 * the client's callback when it signed the user in, its page again when it did not).
 */
export async function submitKeycloakLogin(
  authorizationUrl: string,
  username: string,
  password: string,
): Promise<Response> {
  const jar = new CookieJar();
  const page = await visit(jar, authorizationUrl);
  const html = await page.text();
  assert.equal(page.status, 200, html.slice(0, 500));
  const action = /<form[^>]*id="kc-form-login"[^>]*action="([^"]+)"/.exec(html)?.[1];
  assert.ok(action, 'Keycloak shows its login form');
  return visit(jar, decodeHtml(action), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password, credentialId: '' }).toString(),
  });
}
