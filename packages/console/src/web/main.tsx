/**
 * The console's shell: sign-in, who is signed in, the menu they may use (`/me` capabilities) and the
 * page for the current `#/…` route.
 */
import './console.css';
import type { ComponentChildren } from 'preact';
import { render } from 'preact';
import { useEffect, useErrorBoundary, useState } from 'preact/hooks';
import { AccountsPage, FormsPage } from './admin';
import { CreatePage } from './create';
import { DocumentPage } from './document';
import { HistoryPage } from './history';
import type { Me } from './model';
import { usePageHeading } from './page-heading';
import { SearchBox, SearchPage } from './search';
import { loadSession } from './session';
import { SettingsPage } from './settings';
import { type SignedIn, SignInPage, whoIs } from './sign-in';
import { signOutOf } from './sign-out';
import { ErrorBox, Loading, type Route, useRoute } from './ui';
import { InboxPage, ViewsPage } from './views';

type Capability = keyof Me['capabilities'];

/** The menu; an entry that needs a capability shows only to a principal who has it (`/me`). */
const NAV: readonly (readonly [string, string, Capability?])[] = [
  ['inbox', 'Inbox'],
  ['views', 'Views'],
  ['new', 'New document', 'createDocuments'],
  ['admin/accounts', 'Accounts', 'administer'],
  ['admin/forms', 'Forms', 'administer'],
];

function Page({ route, me }: { route: Route; me: Me }) {
  const [first, second, third] = route.parts;
  if (first === 'admin' && !me.capabilities.administer) return <InboxPage />;
  if (first === 'doc' && second && third === 'history') return <HistoryPage id={second} route={route} />;
  if (first === 'doc' && second) return <DocumentPage id={second} />;
  if (first === 'views') return <ViewsPage route={route} />;
  if (first === 'search') return <SearchPage route={route} />;
  if (first === 'new') return <CreatePage />;
  if (first === 'settings') return <SettingsPage me={me} />;
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

/** Who is signed in, as the header says it. */
function whoLabel({ session, me }: SignedIn): string {
  const name = `${me.name_first} ${me.name_last}`.trim() || me.email;
  if (session.kind === 'key' && me.actingThrough) return `${name} (through a service account)`;
  return me.kind === 'service' ? `${name} (service account)` : name;
}

function App() {
  // undefined while the kept session (if any) is checked with the server.
  const [signedIn, setSignedIn] = useState<SignedIn | null>();
  const route = useRoute();
  const here = route.parts.join('/') || 'inbox';
  usePageHeading(signedIn ? here : 'sign-in');
  useEffect(() => {
    const kept = loadSession();
    if (!kept) setSignedIn(null);
    else whoIs(kept).then(setSignedIn, () => setSignedIn(null));
  }, []);
  if (signedIn === undefined) return <Loading what="who is signed in" />;
  if (!signedIn) return <SignInPage onSignedIn={setSignedIn} />;
  const { me } = signedIn;
  const signOut = () =>
    signOutOf(signedIn.session).then((outcome) => outcome === 'signed-out' && setSignedIn(null));
  return (
    <>
      <button type="button" class="skip" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <header class="top">
        <span class="brand">docflow</span>
        <nav aria-label="Main">
          <ul>
            {NAV.filter(([, , need]) => !need || me.capabilities[need]).map(([path, label]) => (
              <li key={path}>
                <a href={`#/${path}`} aria-current={here.startsWith(path) ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <SearchBox initial={route.parts[0] === 'search' ? (route.query.get('q') ?? '') : ''} />
        <OpenDocument />
        <div class="who">
          <span title={me.email}>Signed in as {whoLabel(signedIn)}</span>
          {me.kind === 'person' ? (
            <a href="#/settings" aria-current={here === 'settings' ? 'page' : undefined}>
              Your settings
            </a>
          ) : null}
          <button type="button" class="secondary" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Boundary key={here}>
          <Page route={route} me={me} />
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
