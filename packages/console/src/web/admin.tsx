/**
 * Administration: accounts (a paged list, create, roles, deactivate, a new service key shown once) and
 * forms (JSON).
 */
import { useState } from 'preact/hooks';
import { accountNamed } from './account-lookup';
import { ApiError, call, enc, type FieldIssue, get } from './api';
import { CopyButton } from './copy';
import { DeputyForm } from './deputy-form';
import { FormFieldsEditor } from './form-fields-editor';
import { FormRecognitionEditor } from './form-recognition-editor';
import { FormWorkflowEditor } from './form-workflow-editor';
import { lineOf } from './json-lines';
import { type Account, formatTime, ROLES, type StoredForm } from './model';
import { PersonPicker } from './person-picker';
import {
  Choice,
  ErrorBox,
  go,
  Loading,
  Pager,
  PageSizeChoice,
  type Route,
  Section,
  useAction,
  useLoad,
} from './ui';

/**
 * Uncontrolled (`defaultChecked`): a controlled `checked` would be set back by every re-render of the
 * page (Preact compares it with the DOM), e.g. when the account list finishes loading mid-edit. A
 * change of the account's roles remounts it (the key).
 */
function RolesField({ name, roles, legend }: { name: string; roles: string[]; legend: string }) {
  return (
    <fieldset class="roles" key={roles.join(' ')}>
      <legend>{legend}</legend>
      {ROLES.map((role) => (
        <label class="check" key={role}>
          <input type="checkbox" name={name} value={role} defaultChecked={roles.includes(role)} /> {role}
        </label>
      ))}
    </fieldset>
  );
}

function AccountCard({ account, onChange }: { account: Account; onChange: (a: Account) => void }) {
  const [run, state] = useAction();
  const patch = (body: { active?: boolean; roles?: string[] }) =>
    run(async () => {
      onChange(
        await call<Account>('PATCH', `/api/admin/v1/accounts/${enc(account._id_sys)}`, body).then(
          (r) => r.body,
        ),
      );
    });
  const saveRoles = (e: Event) => {
    e.preventDefault();
    patch({ roles: new FormData(e.currentTarget as HTMLFormElement).getAll('roles').map(String) });
  };
  return (
    <article class="account" aria-label={`Account ${account.email}`}>
      <h3>
        {account.name_first} {account.name_last} <span class="muted">&lt;{account.email}&gt;</span>{' '}
        <span class={account.active ? 'badge badge-ok' : 'badge'}>
          {account.active ? 'active' : 'inactive'}
        </span>
      </h3>
      <dl class="facts">
        <dt>Id</dt>
        <dd>
          <code>{account._id_sys}</code>
        </dd>
        <dt>Kind</dt>
        <dd>{account.kind}</dd>
      </dl>
      {account.apiKey ? (
        <div class="secret" role="alert">
          <label for={`key-${account._id_sys}`}>API key — copy it now, it is shown only once</label>
          {/* A text area wraps the whole key on any screen; an input would cut it off. */}
          <textarea
            id={`key-${account._id_sys}`}
            class="secret-value"
            readOnly
            rows={3}
            value={account.apiKey}
            onFocus={(e) => (e.target as HTMLTextAreaElement).select()}
          />
          <CopyButton text={account.apiKey} label="Copy the API key" />
        </div>
      ) : null}
      {/* An erased person (its fields `[erased]`) stands in for nobody and has nobody stand in. */}
      {account.kind === 'person' && account.email !== '[erased]' ? (
        <DeputyForm personId={account._id_sys} email={account.email} />
      ) : null}
      <form onSubmit={saveRoles} aria-label={`Roles of ${account.email}`} key={account.roles.join()}>
        <RolesField name="roles" roles={account.roles} legend="Roles" />
        <div class="actions">
          <button type="submit" class="secondary" disabled={state.busy}>
            Save roles
          </button>
          <button
            type="button"
            class={account.active ? 'danger' : 'secondary'}
            disabled={state.busy}
            onClick={() => patch({ active: !account.active })}
          >
            {account.active ? 'Deactivate' : 'Activate'}
          </button>
        </div>
      </form>
      <ErrorBox error={state.error} />
    </article>
  );
}

const KINDS = [
  ['', 'any'],
  ['person', 'persons'],
  ['service', 'service accounts'],
] as const;
const ACTIVITY = [
  ['', 'any'],
  ['true', 'active'],
  ['false', 'inactive'],
] as const;
const ORDERS = [
  ['newest', 'newest first'],
  ['oldest', 'oldest first'],
] as const;
const LIST_FILTERS = ['kind', 'active', 'order'] as const;

function AccountTable(props: { accounts: Account[]; caption: string; onOpen: (a: Account) => void }) {
  return (
    <table class="list" aria-label="Accounts">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">E-mail</th>
          <th scope="col">Kind</th>
          <th scope="col">Active</th>
          <th scope="col">Roles</th>
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.accounts.map((a) => (
          <tr key={a._id_sys}>
            <td>
              {a.name_first} {a.name_last}
            </td>
            <td>{a.email}</td>
            <td>{a.kind}</td>
            <td>{a.active ? 'active' : 'inactive'}</td>
            <td>{a.roles.join(', ') || <span class="muted">none</span>}</td>
            <td>
              <button
                type="button"
                class="secondary"
                aria-label={`Open ${a.email}`}
                onClick={() => props.onOpen(a)}
              >
                Open
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Every account, newest first (or oldest), filtered by kind and active flag, one page at a time. */
function AccountList({ route, list }: { route: Route; list: ReturnType<typeof useAccountList> }) {
  const { first, pageSize, params } = list;
  const navigate = (next: URLSearchParams) => go(`/admin/accounts?${next}`);
  const onFilter = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    const next = new URLSearchParams({ first: '0', pageSize: String(data.get('pageSize') ?? 10) });
    for (const f of LIST_FILTERS) if (data.get(f)) next.set(f, String(data.get(f)));
    navigate(next);
  };
  const page = (to: number) => {
    const next = new URLSearchParams(params);
    next.set('first', String(Math.max(0, to)));
    navigate(next);
  };
  const { data, error, loading } = list.loaded;
  const total = data?.total ?? 0;
  return (
    <Section title="All accounts" id="all-accounts">
      <form class="filters" onSubmit={onFilter} aria-label="Account filters" key={String(route.query)}>
        <Choice label="Kind" name="kind" initial={route.query.get('kind') ?? ''} options={KINDS} />
        <Choice label="Active" name="active" initial={route.query.get('active') ?? ''} options={ACTIVITY} />
        <Choice label="Order" name="order" initial={route.query.get('order') ?? 'newest'} options={ORDERS} />
        <PageSizeChoice initial={pageSize} />
        <button type="submit">Show</button>
      </form>
      <ErrorBox error={error} />
      {loading && !data ? <Loading what="accounts" /> : null}
      {data ? (
        <>
          {data.accounts.length ? (
            <AccountTable
              accounts={data.accounts}
              caption={`Accounts ${total ? first + 1 : 0}–${first + data.accounts.length} of ${total}`}
              onOpen={list.onOpen}
            />
          ) : (
            <p class="empty">No accounts match.</p>
          )}
          <Pager first={first} pageSize={pageSize} total={total} onPage={page} />
        </>
      ) : null}
    </Section>
  );
}

function useAccountList(route: Route, onOpen: (a: Account) => void) {
  const first = Number(route.query.get('first') ?? 0);
  const pageSize = Number(route.query.get('pageSize') ?? 10);
  const params = new URLSearchParams({ first: String(first), pageSize: String(pageSize), order: 'newest' });
  for (const f of LIST_FILTERS) if (route.query.get(f)) params.set(f, route.query.get(f)!);
  const loaded = useLoad(async () => {
    const { body, headers } = await call<Account[]>('GET', `/api/admin/v1/accounts?${params}`);
    return { accounts: body, total: Number(headers.get('svc-total-count') ?? body.length) };
  }, String(params));
  return { first, pageSize, params, loaded, onOpen };
}

export function AccountsPage({ route }: { route: Route }) {
  const [accounts, setAccounts] = useState<Account[]>([]);
  const [create, creating] = useAction();
  const [lookup, looking] = useAction();
  const put = (a: Account) =>
    setAccounts((shown) => [
      { ...a, apiKey: a.apiKey ?? undefined },
      ...shown.filter((x) => x._id_sys !== a._id_sys),
    ]);
  const list = useAccountList(route, put);
  // The key of a new service account stays on its card for this page's life: it is never answered again.
  const replace = (a: Account) => {
    setAccounts((shown) => shown.map((x) => (x._id_sys === a._id_sys ? { ...a, apiKey: x.apiKey } : x)));
    list.loaded.reload();
  };

  const onCreate = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    create(async () => {
      const { body } = await call<Account>('POST', '/api/admin/v1/accounts', {
        kind: data.get('kind'),
        email: data.get('email'),
        name_first: data.get('name_first'),
        name_last: data.get('name_last'),
        roles: data.getAll('roles').map(String),
      });
      put(body);
      list.loaded.reload();
      form.reset();
    });
  };
  const onLookup = (e: Event) => {
    e.preventDefault();
    const who = String(new FormData(e.currentTarget as HTMLFormElement).get('who') ?? '').trim();
    lookup(async () => put(await accountNamed(who)));
  };

  return (
    <>
      <h1>Accounts</h1>
      <div class="columns">
        <Section title="New account" id="new-account">
          <form class="stack" onSubmit={onCreate} aria-label="New account">
            <fieldset class="inline">
              <legend>Kind</legend>
              <label class="check">
                <input type="radio" name="kind" value="person" defaultChecked /> Person
              </label>
              <label class="check">
                <input type="radio" name="kind" value="service" /> Service account (gets an API key)
              </label>
            </fieldset>
            <div class="field">
              <label for="acc-email">E-mail</label>
              <input id="acc-email" name="email" type="email" required autoComplete="off" />
            </div>
            <div class="field">
              <label for="acc-first">First name</label>
              <input id="acc-first" name="name_first" required />
            </div>
            <div class="field">
              <label for="acc-last">Last name</label>
              <input id="acc-last" name="name_last" required />
            </div>
            <RolesField name="roles" roles={[]} legend="Roles" />
            <div class="actions">
              <button type="submit" disabled={creating.busy}>
                Create account
              </button>
            </div>
            <ErrorBox error={creating.error} />
          </form>
        </Section>
        <div>
          <Section title="Open an account" id="open-account">
            <form class="row" onSubmit={onLookup} aria-label="Open an account">
              <div class="field">
                <label for="open-who">Name, e-mail or account id</label>
                <PersonPicker id="open-who" name="who" label="the account to open" required />
              </div>
              <button type="submit" class="secondary" disabled={looking.busy}>
                Open
              </button>
            </form>
            <ErrorBox error={looking.error} />
          </Section>
          {accounts.map((a) => (
            <AccountCard key={a._id_sys} account={a} onChange={replace} />
          ))}
        </div>
      </div>
      <AccountList route={route} list={list} />
    </>
  );
}

export function FormsPage() {
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [issues, setIssues] = useState<(FieldIssue & { line?: number })[]>([]);
  const [saved, setSaved] = useState('');
  const [loaded, setLoaded] = useState('');
  const [run, state] = useAction();
  const forms = useLoad(() => get<StoredForm[]>('/api/admin/v1/forms'), 'admin-forms');

  const open = (formName: string) =>
    run(async () => {
      setIssues([]);
      setSaved('');
      setName(formName);
      // `_meta` is the server's (revision, times): shown beside the editor, never sent back.
      const { _meta, ...definition } = await get<StoredForm>(`/api/admin/v1/forms/${enc(formName)}`);
      setLoaded(`Revision ${_meta._rev}, last changed ${formatTime(_meta._lastmodified)}.`);
      setText(JSON.stringify(definition, null, 2));
    });
  const load = (e: Event) => {
    e.preventDefault();
    open(name);
  };
  const save = () =>
    run(async () => {
      setSaved('');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        setIssues([{ message: `Not JSON: ${(err as Error).message}` }]);
        return;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        setIssues([{ message: 'The definition must be a JSON object, { … }.' }]);
        return;
      }
      // The name box names the form: it fills in a missing `name` and wins over a different one.
      const named = name || String((parsed as { name?: unknown }).name ?? '');
      if (!named) {
        setIssues([{ message: 'Give the form a name (the Form name box, or "name" in the JSON).' }]);
        return;
      }
      const body = { ...parsed, name: named };
      setName(named);
      try {
        const { headers } = await call('PUT', `/api/admin/v1/forms/${enc(named)}`, body);
        setIssues([]);
        setLoaded('');
        setText(JSON.stringify(body, null, 2));
        setSaved(`Saved form ${named}${headers.get('etag') ? ` (${headers.get('etag')})` : ''}.`);
        forms.reload();
      } catch (err) {
        if (err instanceof ApiError && err.errors.length) {
          setIssues(err.errors.map((i) => ({ ...i, line: i.pointer ? lineOf(text, i.pointer) : undefined })));
          return;
        }
        throw err;
      }
    });

  return (
    <>
      <h1>Forms</h1>
      <form class="row" onSubmit={load} aria-label="Open a form">
        <label>
          Form name
          <input
            value={name}
            required
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
            list="known-forms-admin"
          />
        </label>
        <datalist id="known-forms-admin">
          {(forms.data ?? []).map((f) => (
            <option key={f.name} value={f.name}>
              {f.title}
            </option>
          ))}
        </datalist>
        <button type="submit" class="secondary" disabled={state.busy}>
          Open
        </button>
        <button
          type="button"
          class="secondary"
          onClick={() => setText(JSON.stringify({ name, title: name, formsystype: 9, tags: {} }, null, 2))}
        >
          Start a new one
        </button>
      </form>
      {forms.data?.length ? (
        <nav aria-label="Existing forms">
          <ul class="form-list">
            {forms.data.map((f) => (
              <li key={f.name}>
                <button type="button" class="secondary" disabled={state.busy} onClick={() => open(f.name)}>
                  Edit {f.name}
                </button>{' '}
                <span class="muted">{f.title}</span>
              </li>
            ))}
          </ul>
        </nav>
      ) : (
        <ErrorBox error={forms.error} />
      )}
      {text ? <FormFieldsEditor text={text} onText={setText} /> : null}
      {text ? <FormWorkflowEditor text={text} onText={setText} issues={issues} /> : null}
      {text ? <FormRecognitionEditor text={text} onText={setText} issues={issues} /> : null}
      <div class="field">
        <label for="form-json">Definition (JSON)</label>
        {loaded ? <small class="hint">{loaded}</small> : null}
        <textarea
          id="form-json"
          class="code"
          rows={24}
          spellcheck={false}
          value={text}
          aria-invalid={issues.length ? 'true' : undefined}
          aria-describedby={issues.length ? 'form-json-issues' : undefined}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        />
        {issues.length ? (
          <ul id="form-json-issues" class="field-error" aria-live="polite">
            {issues.map((i) => (
              <li key={`${i.pointer}:${i.message}`}>
                {i.line ? <strong>line {i.line}: </strong> : null}
                {i.pointer ? <code>{i.pointer}</code> : null} {i.message}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div class="actions">
        <button type="button" disabled={state.busy || !text} onClick={save}>
          Save form
        </button>
      </div>
      {saved ? (
        <p class="notice" role="status">
          {saved}
        </p>
      ) : null}
      <ErrorBox error={state.error} />
    </>
  );
}
