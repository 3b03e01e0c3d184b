/** The console's shell: sign-in, navigation and the page for the current `#/…` route. */
import './console.css';
import type { ComponentChildren } from 'preact';
import { render } from 'preact';
import { useErrorBoundary, useState } from 'preact/hooks';
import { AccountsPage, FormsPage } from './admin';
import { call } from './api';
import { CreatePage } from './create';
import { DocumentPage } from './document';
import { HistoryPage } from './history';
import { clearSession, loadSession, type Session, saveSession } from './session';
import { ErrorBox, type Route, useAction, useRoute } from './ui';
import { InboxPage, ViewsPage } from './views';

function SignIn({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [run, state] = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    const session = {
      key: String(data.get('key') ?? '').trim(),
      runAs: String(data.get('runAs') ?? '').trim(),
    };
    run(async () => {
      saveSession(session);
      try {
        await call('GET', '/api/v2/docForm/view/inbox?pageSize=1');
      } catch (err) {
        clearSession();
        throw err;
      }
      onSignedIn(session);
    });
  };
  return (
    <main id="main" class="signin">
      <form class="card stack" onSubmit={submit} aria-labelledby="signin-heading">
        <h1 id="signin-heading">Sign in to docflow</h1>
        <div class="field">
          <label for="signin-key">API key</label>
          <input id="signin-key" name="key" type="password" required autoComplete="off" />
        </div>
        <div class="field">
          <label for="signin-runas">Run as (optional)</label>
          <input id="signin-runas" name="runAs" autoComplete="off" aria-describedby="signin-runas-hint" />
          <small id="signin-runas-hint" class="hint">
            A person’s e-mail or usr- id, sent as <code>svc-run-as</code>.
          </small>
        </div>
        <button type="submit" disabled={state.busy}>
          Sign in
        </button>
        <ErrorBox error={state.error} />
        <p class="hint">The key stays in this browser tab only (session storage).</p>
      </form>
    </main>
  );
}

const NAV = [
  ['inbox', 'Inbox'],
  ['views', 'Views'],
  ['new', 'New document'],
  ['admin/accounts', 'Accounts'],
  ['admin/forms', 'Forms'],
] as const;

function Page({ route }: { route: Route }) {
  const [first, second, third] = route.parts;
  if (first === 'doc' && second && third === 'history') return <HistoryPage id={second} route={route} />;
  if (first === 'doc' && second) return <DocumentPage id={second} />;
  if (first === 'views') return <ViewsPage route={route} />;
  if (first === 'new') return <CreatePage />;
  if (first === 'admin' && second === 'accounts') return <AccountsPage route={route} />;
  if (first === 'admin' && second === 'forms') return <FormsPage />;
  return <InboxPage />;
}

/** A page that fails while rendering shows why, not a blank screen; another route starts afresh. */
function Boundary({ children }: { children: ComponentChildren }) {
  const [error, reset] = useErrorBoundary();
  if (!error) return <>{children}</>;
  return (
    <>
      <h1>This page failed</h1>
      <ErrorBox error={error} />
      <button type="button" onClick={reset}>
        Try again
      </button>
    </>
  );
}

function OpenDocument() {
  const open = (e: Event) => {
    e.preventDefault();
    const id = String(new FormData(e.currentTarget as HTMLFormElement).get('id') ?? '').trim();
    if (id) location.hash = `#/doc/${encodeURIComponent(id)}`;
  };
  return (
    <form class="open-doc" aria-label="Open a document" onSubmit={open}>
      <label for="open-doc-id" class="visually-hidden">
        Document id
      </label>
      <input id="open-doc-id" name="id" placeholder="Document id" />
      <button type="submit" class="secondary">
        Open
      </button>
    </form>
  );
}

function App() {
  const [session, setSession] = useState(loadSession);
  const route = useRoute();
  if (!session) return <SignIn onSignedIn={setSession} />;
  const here = route.parts.join('/') || 'inbox';
  const signOut = () => {
    clearSession();
    setSession(null);
  };
  return (
    <>
      <button type="button" class="skip" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <header class="top">
        <span class="brand">docflow</span>
        <nav aria-label="Main">
          <ul>
            {NAV.map(([path, label]) => (
              <li key={path}>
                <a href={`#/${path}`} aria-current={here.startsWith(path) ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <OpenDocument />
        <div class="who">
          <span>{session.runAs ? `Acting for ${session.runAs}` : `Key …${session.key.slice(-4)}`}</span>
          <button type="button" class="secondary" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Boundary key={here}>
          <Page route={route} />
        </Boundary>
      </main>
    </>
  );
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
