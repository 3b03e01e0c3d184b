/**
 * Signing out. A person's session ends at the server; one that came through a single sign-on provider
 * ends there too (RP-initiated logout): the gateway's oidc logout ends docflow's session and answers
 * 303 to the provider's end-session endpoint, which sends the browser back to the console. That is a
 * navigation, so it is a form's POST (the gateway's CSP lets the console's forms lead to its providers),
 * not a fetch, whose redirect the page could neither follow nor read.
 */
import { call } from './api';
import { clearSession, type Session } from './session';

const SIGN_OUT_PATH = '/api/auth/v1/logout';
const OIDC_SIGN_OUT_PATH = '/api/auth/v1/oidc/logout';

/** Posts an empty form to `path` (same-origin, so the session cookie and the CSRF check go along). */
function navigateByPost(path: string): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = path;
  document.body.append(form);
  form.submit();
}

/**
 * Ends the session at the server (a key has none); the tab forgets either way. Resolves `'left'` when
 * the browser is on its way to the provider (the page is being replaced), `'signed-out'` otherwise.
 */
export async function signOutOf(session: Session): Promise<'left' | 'signed-out'> {
  clearSession();
  if (session.kind !== 'cookie') return 'signed-out';
  if (session.provider) {
    navigateByPost(OIDC_SIGN_OUT_PATH);
    return 'left';
  }
  await call('POST', SIGN_OUT_PATH).catch(() => undefined);
  return 'signed-out';
}
