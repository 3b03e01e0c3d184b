/**
 * Full-text search (`#/search?q=…`): the header's search box and the ranked results of
 * `GET /api/v2/docForm/view/all?q=`, best match first, each with a snippet whose matched words are marked.
 */
import { call } from './api';
import { type ListedDoc, phaseName, statusName } from './model';
import { Person } from './person';
import { snippetOf } from './snippet';
import { docLink, ErrorBox, go, Loading, Pager, type Route, useLoad } from './ui';

const PAGE_SIZE = 20;

export function SearchBox({ initial }: { initial: string }) {
  const search = (e: Event) => {
    e.preventDefault();
    const q = String(new FormData(e.currentTarget as HTMLFormElement).get('q') ?? '').trim();
    if (q) go(`/search?${new URLSearchParams({ q })}`);
  };
  return (
    <form class="search" aria-label="Search documents" onSubmit={search} key={initial}>
      <label for="search-q" class="visually-hidden">
        Search documents
      </label>
      <input id="search-q" name="q" type="search" placeholder="Search documents" defaultValue={initial} />
      <button type="submit" class="secondary">
        Search
      </button>
    </form>
  );
}

function Snippet({ doc, q }: { doc: ListedDoc; q: string }) {
  const parts = snippetOf(doc, q);
  if (!parts.length) return null;
  return <p class="snippet">{parts.map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : p.text))}</p>;
}

export function SearchPage({ route }: { route: Route }) {
  const q = route.query.get('q')?.trim() ?? '';
  const first = Number(route.query.get('first') ?? 0);
  const params = new URLSearchParams({ q, first: String(first), pageSize: String(PAGE_SIZE) });
  const found = useLoad(async () => {
    if (!q) return { docs: [], total: 0, atLeast: false };
    const { body, headers } = await call<ListedDoc[]>(
      'GET',
      `/api/v2/docForm/view/all?${params}&embed=names`,
    );
    return {
      docs: body,
      total: Number(headers.get('svc-total-count') ?? body.length),
      atLeast: headers.get('svc-total-count-relation') === 'gte',
    };
  }, String(params));
  const page = (to: number) => go(`/search?${new URLSearchParams({ q, first: String(Math.max(0, to)) })}`);
  const data = found.data;
  return (
    <>
      <h1>Search</h1>
      {q ? null : (
        <p class="lead">Type words in the search box above: every word must occur in a document.</p>
      )}
      <ErrorBox error={found.error} />
      {found.loading && !data ? <Loading what="matching documents" /> : null}
      {q && data ? (
        data.docs.length ? (
          <>
            <p class="muted" role="status">
              {data.atLeast ? 'At least ' : ''}
              {data.total} document{data.total === 1 ? '' : 's'} match “{q}”, best match first.
            </p>
            <ol class="results" start={first + 1}>
              {data.docs.map((doc) => (
                <li key={doc._id}>
                  <a href={docLink(doc._id_web)}>
                    <span class="result-title">{doc.title ?? doc.form}</span>
                    <span class="hint">
                      {' '}
                      {doc.form} · {doc._id_web}
                    </span>
                    <span class="muted">
                      {' '}
                      — by <Person id={doc.author} names={doc.names} />, {phaseName(doc.state)},{' '}
                      {statusName(doc.status)}
                    </span>
                  </a>
                  <Snippet doc={doc} q={q} />
                </li>
              ))}
            </ol>
            <Pager first={first} pageSize={PAGE_SIZE} total={data.total} onPage={page} />
          </>
        ) : (
          <p class="empty">No document holds every word of “{q}”.</p>
        )
      ) : null}
    </>
  );
}
