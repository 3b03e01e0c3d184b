/** The signed-in key and run-as user, kept for the browser tab only (sessionStorage). */
export interface Session {
  key: string;
  /** A person's system id or e-mail sent as `svc-run-as`; empty to act as the key's own account. */
  runAs: string;
}

const STORAGE_KEY = 'docflow.console.session';

export function loadSession(): Session | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Session | null;
    return stored?.key ? { key: stored.key, runAs: stored.runAs ?? '' } : null;
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
