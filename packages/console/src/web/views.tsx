/** The inbox (open tasks, overdue first) and the document views with filters and paging. */
import { accountNamed } from './account-lookup';
import { ApiError, call, enc } from './api';
import {
  byUrgency,
  formatTime,
  isOverdue,
  type ListedDoc,
  PHASES,
  phaseName,
  STATUSES,
  statusName,
} from './model';
import { Person } from './person';
import { PersonPicker } from './person-picker';
import {
  Choice,
  docLink,
  ErrorBox,
  go,
  Loading,
  Pager,
  PageSizeChoice,
  type Route,
  useAction,
  useLoad,
} from './ui';

function DueDate({ datedue }: { datedue: string }) {
  if (!datedue) return <span class="muted">none</span>;
  return isOverdue(datedue) ? (
    <span class="badge badge-overdue">Overdue · {formatTime(datedue)}</span>
  ) : (
    <span>{formatTime(datedue)}</span>
  );
}

function DocTable({ docs, caption }: { docs: ListedDoc[]; caption: string }) {
  return (
    <table class="list">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Document</th>
          <th scope="col">Form</th>
          <th scope="col">Author</th>
          <th scope="col">Phase</th>
          <th scope="col">Status</th>
          <th scope="col">Due</th>
        </tr>
      </thead>
      <tbody>
        {docs.map((doc) => (
          // The whole row opens the document (a click anywhere); the title is its link for the keyboard.
          <tr
            key={doc._id}
            class={`link-row${isOverdue(doc.datedue) ? ' overdue' : ''}`}
            onClick={(e) => {
              if (!(e.target as Element).closest('a')) location.hash = docLink(doc._id_web);
            }}
          >
            <td>
              <a href={docLink(doc._id_web)}>{doc.title ?? doc._id_web}</a>
              <span class="hint">{doc._id_web}</span>
            </td>
            <td>{doc.form}</td>
            <td>
              <Person id={doc.author} names={doc.names} />
            </td>
            <td>
              {phaseName(doc.state)}
              {doc.step ? ` · stage ${doc.step}` : ''}
            </td>
            <td>{statusName(doc.status)}</td>
            <td>
              <DueDate datedue={doc.datedue} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function InboxPage() {
  const inbox = useLoad(async () => {
    const { body } = await call<ListedDoc[]>('GET', '/api/v2/docForm/view/inbox?pageSize=100&embed=names');
    return [...body].sort(byUrgency);
  }, 'inbox');
  const overdue = inbox.data?.filter((d) => isOverdue(d.datedue)).length ?? 0;
  return (
    <>
      <h1>Inbox</h1>
      <p class="lead">Documents waiting for your answer, overdue first.</p>
      <ErrorBox error={inbox.error} />
      {inbox.loading && !inbox.data ? <Loading what="your tasks" /> : null}
      {inbox.data ? (
        inbox.data.length ? (
          <div class="table-scroll">
            <DocTable
              docs={inbox.data}
              caption={`${inbox.data.length} open task${inbox.data.length === 1 ? '' : 's'}${overdue ? `, ${overdue} overdue` : ''}`}
            />
          </div>
        ) : (
          <p class="empty">No open tasks. Nothing waits for you.</p>
        )
      ) : null}
    </>
  );
}

const PHASE_OPTIONS = PHASES.map(([name, code]) => [code, name] as const);
const STATUS_OPTIONS = STATUSES.map(([name, code]) => [code, name] as const);
const FILTERS = ['state', 'status', 'step', 'iteration', 'form', 'author', 'tags'] as const;
/**
 * The author filter's ids: each entry an id, an e-mail or a name's first letters, looked up
 * (administrators only; an entry that names nobody, or several, is said so, never an empty list).
 */
async function authorIds(entries: string): Promise<string> {
  const ids: string[] = [];
  for (const entry of entries.split(',').map((s) => s.trim())) {
    if (!entry) continue;
    // An id is taken as it is: anyone may filter by one, no lookup needed.
    if (entry.startsWith('usr-')) {
      ids.push(entry);
      continue;
    }
    const account = await accountNamed(entry).catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 403)
        throw new ApiError(403, 'Only administrators can look people up', 'give their usr- id');
      throw err;
    });
    ids.push(account._id_sys);
  }
  return ids.join(',');
}

const VIEWS = [
  ['inbox', 'Inbox'],
  ['mydocs', 'My documents'],
  ['all', 'All documents'],
] as const;

export function ViewsPage({ route }: { route: Route }) {
  const viewId = route.parts[1] ?? 'mydocs';
  const q = route.query;
  const first = Number(q.get('first') ?? 0);
  const pageSize = Number(q.get('pageSize') ?? 10);
  const params = new URLSearchParams({ first: String(first), pageSize: String(pageSize) });
  for (const f of FILTERS) if (q.get(f)) params.set(f, q.get(f)!);
  const list = useLoad(async () => {
    const { body, headers } = await call<ListedDoc[]>(
      'GET',
      `/api/v2/docForm/view/${enc(viewId)}?${params}&embed=names`,
    );
    return { docs: body, total: Number(headers.get('svc-total-count') ?? body.length) };
  }, `${viewId}?${params}`);
  const navigate = (next: URLSearchParams) => go(`/views/${viewId}?${next}`);

  const [resolve, resolving] = useAction();
  const onFilter = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    resolve(async () => {
      const next = new URLSearchParams({ first: '0', pageSize: String(data.get('pageSize') ?? 10) });
      for (const f of FILTERS) {
        const typed = String(data.get(f) ?? '').trim();
        const v = f === 'author' ? await authorIds(typed) : typed;
        if (v) next.set(f, v);
      }
      go(`/views/${String(data.get('view'))}?${next}`);
    });
  };
  const page = (to: number) => {
    const next = new URLSearchParams(params);
    next.set('first', String(Math.max(0, to)));
    navigate(next);
  };
  const total = list.data?.total ?? 0;
  return (
    <>
      <h1>Views</h1>
      <form class="filters" onSubmit={onFilter} aria-label="View and filters" key={`${viewId}?${q}`}>
        <Choice label="View" name="view" initial={viewId} options={VIEWS} />
        <Choice
          label="Phase"
          name="state"
          initial={q.get('state') ?? ''}
          options={[['', 'any'], ...PHASE_OPTIONS]}
        />
        <Choice
          label="Status"
          name="status"
          initial={q.get('status') ?? ''}
          options={[['', 'any'], ...STATUS_OPTIONS]}
        />
        <label>
          Stage
          <input name="step" inputMode="numeric" pattern="\d*" size={3} defaultValue={q.get('step') ?? ''} />
        </label>
        <label>
          Iteration
          <input
            name="iteration"
            inputMode="numeric"
            pattern="\d*"
            size={3}
            defaultValue={q.get('iteration') ?? ''}
          />
        </label>
        <label>
          Form(s)
          <input name="form" placeholder="invoice,memo" defaultValue={q.get('form') ?? ''} />
        </label>
        <div class="field">
          <label for="filter-author">Author(s): name, e-mail or id</label>
          <PersonPicker
            id="filter-author"
            name="author"
            label="the author filter"
            several
            initial={q.get('author') ?? ''}
            placeholder="Bob, bob@example.com, usr-…"
          />
        </div>
        <label>
          Tags (all of)
          <input name="tags" placeholder="urgent,audit" defaultValue={q.get('tags') ?? ''} />
        </label>
        <PageSizeChoice initial={pageSize} />
        <button type="submit" disabled={resolving.busy}>
          Show
        </button>
      </form>
      <ErrorBox error={resolving.error} />
      <ErrorBox error={list.error} />
      {list.loading && !list.data ? <Loading what="documents" /> : null}
      {list.data ? (
        <>
          {list.data.docs.length ? (
            <div class="table-scroll">
              <DocTable
                docs={list.data.docs}
                caption={`Documents ${total ? first + 1 : 0}–${first + list.data.docs.length} of ${total}`}
              />
            </div>
          ) : (
            <p class="empty">No documents match.</p>
          )}
          <Pager first={first} pageSize={pageSize} total={total} onPage={page} />
        </>
      ) : null}
    </>
  );
}
