/**
 * How the console authenticates, kept for the browser tab only (sessionStorage): an API key (with an
 * optional run-as person), or a person's sign-in, whose session cookie the browser keeps (HttpOnly:
 * the page never sees it, so a signed-in person leaves nothing here but the fact, and the single
 * sign-on provider it went through, whose session the console's sign-out ends too).
 */
export type Session =
  | {
      kind: 'key';
      key: string;
      /** A person's system id or e-mail sent as `svc-run-as`; empty to act as the key's own account. */
      runAs: string;
    }
  | {
      kind: 'cookie';
      /** The provider's id when the sign-in went through single sign-on (kept when its button is clicked). */
      provider?: string;
    };

const STORAGE_KEY = 'docflow.console.session';

export function loadSession(): Session | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<{
      kind: string;
      key: string;
      runAs: string;
      provider: string;
    }> | null;
    if (stored?.kind === 'cookie')
      return stored.provider ? { kind: 'cookie', provider: stored.provider } : { kind: 'cookie' };
    return stored?.key ? { kind: 'key', key: stored.key, runAs: stored.runAs ?? '' } : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
}

export function clearSession(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
