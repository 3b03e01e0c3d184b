/**
 * The sign-in page: a person with e-mail and password (a session cookie), a single sign-on provider
 * when the gateway lists any, or an API key (with an optional run-as person). Each ends with who is
 * signed in (`GET /api/v2/me`), from which the console shows only what that principal may do.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, get, getWithKey } from './api';
import type { Me } from './model';
import { PersonPicker } from './person-picker';
import { loadProviders, type Provider } from './providers';
import { clearSession, type Session, saveSession } from './session';
import { ErrorBox, useAction } from './ui';

export interface SignedIn {
  session: Session;
  me: Me;
}

/** Who `session` is, once it is kept for this tab; forgotten again when the server refuses it. */
export async function whoIs(session: Session): Promise<SignedIn> {
  saveSession(session);
  try {
    return { session, me: await get<Me>('/api/v2/me') };
  } catch (err) {
    clearSession();
    throw err;
  }
}

const field = (form: EventTarget | null, name: string) =>
  String(new FormData(form as HTMLFormElement).get(name) ?? '').trim();

function PasswordForm({ onSignedIn }: { onSignedIn: (s: SignedIn) => void }) {
  const [run, state] = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    const email = field(e.currentTarget, 'email');
    const password = String(new FormData(e.currentTarget as HTMLFormElement).get('password') ?? '');
    run(async () => {
      await call('POST', '/api/auth/v1/login', { email, password });
      onSignedIn(await whoIs({ kind: 'cookie' }));
    });
  };
  return (
    <form class="card stack" onSubmit={submit} aria-label="Sign in with e-mail and password">
      <h2>With your e-mail and password</h2>
      <div class="field">
        <label for="signin-email">E-mail</label>
        <input id="signin-email" name="email" type="email" required autoComplete="username" />
      </div>
      <div class="field">
        <label for="signin-password">Password</label>
        <input
          id="signin-password"
          name="password"
          type="password"
          required
          autoComplete="current-password"
        />
      </div>
      <button type="submit" disabled={state.busy}>
        Sign in
      </button>
      <ErrorBox error={state.error} />
    </form>
  );
}

function KeyForm({ onSignedIn }: { onSignedIn: (s: SignedIn) => void }) {
  const [run, state] = useAction();
  /** The key typed so far: the run-as box looks people up with it (an administrator's key). */
  const [key, setKey] = useState('');
  const submit = (e: Event) => {
    e.preventDefault();
    const session: Session = {
      kind: 'key',
      key: field(e.currentTarget, 'key'),
      runAs: field(e.currentTarget, 'runAs'),
    };
    run(async () => onSignedIn(await whoIs(session)));
  };
  return (
    <form class="card stack" onSubmit={submit} aria-label="Sign in with an API key">
      <h2>With an API key</h2>
      <div class="field">
        <label for="signin-key">API key</label>
        <input
          id="signin-key"
          name="key"
          type="password"
          required
          autoComplete="off"
          onInput={(e) => setKey((e.target as HTMLInputElement).value)}
        />
      </div>
      <div class="field">
        <label for="signin-runas">Run as (optional)</label>
        <PersonPicker
          id="signin-runas"
          name="runAs"
          label="Run as"
          placeholder=""
          describedBy="signin-runas-hint"
          fetcher={<T,>(path: string) => getWithKey<T>(key, path)}
        />
        <small id="signin-runas-hint" class="hint">
          A person’s e-mail or usr- id (or, with an administrator’s key, the first letters of their name),
          sent as <code>svc-run-as</code>.
        </small>
      </div>
      <button type="submit" disabled={state.busy}>
        Sign in
      </button>
      <ErrorBox error={state.error} />
      <p class="hint">The key stays in this browser tab only (session storage).</p>
    </form>
  );
}

export function SignInPage({ onSignedIn }: { onSignedIn: (s: SignedIn) => void }) {
  const [providers, setProviders] = useState<Provider[]>([]);
  useEffect(() => {
    let current = true;
    loadProviders().then((list) => current && setProviders(list));
    return () => {
      current = false;
    };
  }, []);
  return (
    <main id="main" class="signin stack">
      <h1 id="signin-heading">Sign in to docflow</h1>
      {providers.length ? (
        <nav class="card stack" aria-label="Single sign-on">
          {providers.map((p) => (
            // The tab keeps the sign-in it starts: back from the provider, the console asks `/me`.
            <a
              key={p.id}
              class="button"
              href={p.loginUrl}
              onClick={() => saveSession({ kind: 'cookie', provider: p.id })}
            >
              Sign in with {p.name}
            </a>
          ))}
        </nav>
      ) : null}
      <PasswordForm onSignedIn={onSignedIn} />
      <KeyForm onSignedIn={onSignedIn} />
    </main>
  );
}
