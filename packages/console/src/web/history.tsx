/** A document's history as a timeline (each entry in words, its raw changes one click away) and any past revision. */
import { call, enc, get } from './api';
import { FieldsTable, TagList, WorkflowSummary } from './document';
import { type Doc, formatTime, type HistoryEntry } from './model';
import { docLink, ErrorBox, Loading, type Route, Section, useLoad } from './ui';

const shown = (v: unknown) => (v === undefined ? '∅' : typeof v === 'string' ? v : JSON.stringify(v));

/** Each entry in the API's words (`summary`), its raw changes one click away. */
function Timeline({ docId, entries, current }: { docId: string; entries: HistoryEntry[]; current: number }) {
  return (
    <ol class="timeline">
      {entries.map((e) => (
        <li key={e.rev} class={e.rev === current ? 'selected' : undefined}>
          <div class="timeline-head">
            <span class="rev">rev {e.rev}</span> <time dateTime={e.time}>{formatTime(e.time)}</time>
          </div>
          <p class="summary">{e.summary}</p>
          {e.changes.length ? (
            <details class="raw-changes">
              <summary>
                {e.changes.length} change{e.changes.length === 1 ? '' : 's'}{' '}
                <span class="muted">({e.type})</span>
              </summary>
              <table class="changes">
                <caption class="visually-hidden">Changes of revision {e.rev}</caption>
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Before</th>
                    <th scope="col">After</th>
                  </tr>
                </thead>
                <tbody>
                  {e.changes.map((c) => (
                    <tr key={c.path}>
                      <th scope="row">
                        <code>{c.path}</code>
                      </th>
                      <td class="before">{shown(c.before)}</td>
                      <td class="after">{shown(c.after)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          ) : null}
          <a
            href={`#/doc/${enc(docId)}/history?rev=${e.rev}`}
            aria-label={`View the document at revision ${e.rev}`}
          >
            View revision {e.rev}
          </a>
        </li>
      ))}
    </ol>
  );
}

function Revision({ docId, rev }: { docId: string; rev: number }) {
  const doc = useLoad(
    () =>
      call<Doc>('GET', `/api/v2/docForm/${enc(docId)}?rev=${rev}&embed=recoData,names`).then((r) => r.body),
    `${docId}@${rev}`,
  );
  return (
    <Section title={`The document at revision ${rev}`} id="revision">
      <ErrorBox error={doc.error} />
      {doc.loading && !doc.data ? <Loading what={`revision ${rev}`} /> : null}
      {doc.data ? (
        <>
          <p class="muted">As it was on {formatTime(doc.data._meta._lastmodified)}.</p>
          <WorkflowSummary doc={doc.data} />
          <h3>Fields</h3>
          <FieldsTable values={doc.data.valuesByTags} />
          <h3>Tags</h3>
          <TagList tags={doc.data._tags} />
          <h3>Attachments</h3>
          {doc.data.filesList.length ? (
            <ul>
              {doc.data.filesList.map((f) => (
                <li key={f.id}>{f.fileName}</li>
              ))}
            </ul>
          ) : (
            <p class="muted">None.</p>
          )}
        </>
      ) : null}
    </Section>
  );
}

export function HistoryPage({ id, route }: { id: string; route: Route }) {
  const history = useLoad(
    () =>
      Promise.all([
        get<HistoryEntry[]>(`/api/v2/docForm/${enc(id)}/history`),
        get<Pick<Doc, 'title'>>(`/api/v2/docForm/${enc(id)}?fields=title`),
      ]).then(([entries, doc]) => ({ entries, title: doc.title ?? id })),
    id,
  );
  const rev = Number(route.query.get('rev') ?? 0);
  return (
    <>
      <div class="page-head">
        <h1>
          History <span class="muted">· {history.data?.title ?? id}</span>
        </h1>
        <a class="button secondary" href={docLink(id)}>
          Back to the document
        </a>
      </div>
      <ErrorBox error={history.error} />
      {history.loading && !history.data ? <Loading what="the history" /> : null}
      {history.data ? (
        <div class="columns">
          <Section title={`${history.data.entries.length} revisions`} id="timeline">
            <Timeline docId={id} entries={history.data.entries} current={rev} />
          </Section>
          {rev ? (
            <Revision docId={id} rev={rev} />
          ) : (
            <p class="muted">Choose a revision to see the document as it was.</p>
          )}
        </div>
      ) : null}
    </>
  );
}
