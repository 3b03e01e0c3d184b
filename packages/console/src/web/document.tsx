/** A document: workflow, the caller's task and its answer, fields, attachments, recognition, management. */
import { useState } from 'preact/hooks';
import { call, download, enc } from './api';
import { CommentsSection } from './comments';
import { HandOverForm } from './hand-over';
import {
  answersFor,
  type Doc,
  formatTime,
  type HistoryEntry,
  isOverdue,
  managementActions,
  phaseName,
  statusName,
  type TagValue,
  type Task,
} from './model';
import { Person } from './person';
import { usePollWhile } from './poll';
import { RecognitionSection } from './recognition';
import { type TaskLine, tasksOf } from './tasks';
import { ErrorBox, type Loaded, Loading, Section, useAction, useLoad, ValueView } from './ui';
import { ValuesEditor } from './values-editor';

export function WorkflowSummary({ doc }: { doc: Doc }) {
  return (
    <dl class="facts">
      <dt>Phase</dt>
      <dd>{phaseName(doc.state)}</dd>
      <dt>Stage</dt>
      <dd>{doc.step || '—'}</dd>
      <dt>Iteration</dt>
      <dd>{doc.iteration || '—'}</dd>
      <dt>Status</dt>
      <dd>
        <span class={`badge badge-status-${doc.status}`}>{statusName(doc.status)}</span>
      </dd>
      <dt>Author</dt>
      <dd>
        <Person id={doc.author} names={doc.names} />
      </dd>
      <dt>Created</dt>
      <dd>{formatTime(doc.datecreated)}</dd>
      <dt>Due</dt>
      <dd>{doc.datedue ? formatTime(doc.datedue) : 'no due date'}</dd>
      <dt>Revision</dt>
      <dd>{doc._meta._rev}</dd>
    </dl>
  );
}

export function FieldsTable({ values }: { values: Record<string, TagValue> }) {
  const entries = Object.entries(values ?? {});
  if (!entries.length) return <p class="empty">No field values.</p>;
  return (
    <table class="fields">
      <tbody>
        {entries.map(([tag, value]) => (
          <tr key={tag}>
            <th scope="row">{tag}</th>
            <td>
              <ValueView value={value} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function TagList({ tags }: { tags: string[] }) {
  if (!tags.length) return <p class="muted">No tags.</p>;
  return (
    <ul class="tags" aria-label="Tags">
      {tags.map((t) => (
        <li key={t} class="tag">
          {t}
        </li>
      ))}
    </ul>
  );
}

function Attachments({ doc }: { doc: Doc }) {
  const [run, state] = useAction();
  if (!doc.filesList.length) return <p class="empty">No attachments.</p>;
  const downloads = doc.actions?.download === true;
  return (
    <>
      <ul class="files">
        {doc.filesList.map((f) => (
          <li key={f.id}>
            <span class="file-name">{f.fileName}</span>
            {downloads ? (
              <button
                type="button"
                class="secondary"
                disabled={state.busy}
                onClick={() =>
                  run(() => download(`/api/v2/docForm/${enc(doc._id)}/file/${f.id}`, f.fileName))
                }
              >
                Download <span class="visually-hidden">{f.fileName}</span>
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <ErrorBox error={state.error} />
    </>
  );
}

/**
 * A task's due date, marked Overdue when the server recorded its deadline passing (its clock decides
 * escalations) or, while open, when it is past by this browser's clock.
 */
function TaskDue({
  due,
  overdue,
  open,
  remindedAt,
}: Pick<TaskLine, 'due' | 'overdue' | 'remindedAt'> & { open: boolean }) {
  if (!due) return <span class="muted">no due date</span>;
  const late = overdue || (open && isOverdue(due));
  return (
    <>
      {late ? <span class="badge badge-overdue">Overdue</span> : null} {formatTime(due)}
      {remindedAt ? <span class="hint">Reminded {formatTime(remindedAt)}</span> : null}
    </>
  );
}

function TasksTable({
  doc,
  tasks,
  onDone,
}: {
  doc: Doc;
  tasks: Loaded<TaskLine[] | undefined>;
  onDone: (doc: Doc, message: string) => void;
}) {
  const [handing, setHanding] = useState('');
  const names = doc.names;
  if (tasks.error) return <ErrorBox error={tasks.error} />;
  if (!tasks.data) return <Loading what="the tasks" />;
  if (!tasks.data.length) return <p class="muted">No tasks yet: no phase was started.</p>;
  const all = tasks.data;
  const nameOf = (id: string) => names?.[id] ?? id;
  const outcomeClass = (t: TaskLine) =>
    t.outcome === 'open'
      ? 'badge badge-status-2'
      : /declined|cancelled/.test(t.outcome)
        ? 'badge badge-status-5'
        : 'badge badge-ok';
  const handed = all.find((t) => t.respId === handing && t.outcome === 'open');
  // The tasks the server lets the caller hand over now (`embed=actions`, decided by the command's rule).
  const handOver = doc.actions?.reassign ?? [];
  return (
    <>
      <table class="changes tasks">
        <caption class="visually-hidden">Tasks of this document</caption>
        <thead>
          <tr>
            <th scope="col">Phase</th>
            <th scope="col">Assignee</th>
            <th scope="col">Due</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {all.map((t) => (
            <tr key={t.respId}>
              <td>
                {t.phase} · it. {t.iteration} · stage {t.step}
              </td>
              <td>
                <Person id={t.assignee} names={names} />
                {t.onBehalfOf ? (
                  <>
                    {' '}
                    (on behalf of <Person id={t.onBehalfOf} names={names} />)
                  </>
                ) : null}
                {t.handedTo ? (
                  <>
                    {' '}
                    → <Person id={t.handedTo} names={names} />
                  </>
                ) : null}
                {t.answeredBy && t.answeredBy !== t.assignee ? (
                  <>
                    {' '}
                    (answered by <Person id={t.answeredBy} names={names} />)
                  </>
                ) : null}
              </td>
              <td>
                <TaskDue
                  due={t.due}
                  overdue={t.overdue}
                  remindedAt={t.remindedAt}
                  open={t.outcome === 'open'}
                />
              </td>
              <td>
                <span class={outcomeClass(t)}>{t.outcome}</span>
                {t.escalation ? (
                  <span class="hint">
                    {t.escalation.words} {t.escalation.to.map(nameOf).join(', ')}
                  </span>
                ) : null}
                {t.comment ? <q class="comment">{t.comment}</q> : null}
                {handOver.includes(t.respId) && handing !== t.respId ? (
                  <button
                    type="button"
                    class="secondary small"
                    aria-label={`Reassign ${nameOf(t.assignee)}’s task`}
                    onClick={() => setHanding(t.respId)}
                  >
                    Reassign
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {handed ? (
        <HandOverForm
          key={handed.respId}
          doc={doc}
          task={handed}
          assigneeName={nameOf(handed.assignee)}
          onDone={(updated, message) => {
            setHanding('');
            onDone(updated, message);
          }}
          onCancel={() => setHanding('')}
        />
      ) : null}
    </>
  );
}

function TaskPanel({
  doc,
  task,
  allowed,
  line,
  onDone,
}: {
  doc: Doc;
  task: Task;
  /** The task as the history tells it (its stage's deadline), once loaded. */
  line: TaskLine | undefined;
  /** The task statuses the server takes for this task now (`embed=actions`). */
  allowed: readonly number[];
  onDone: (doc: Doc, message: string) => void;
}) {
  const [comment, setComment] = useState('');
  const [values, setValues] = useState<Record<string, TagValue>>(doc.valuesByTags);
  const [tags, setTags] = useState(doc._tags.join(', '));
  const [needComment, setNeedComment] = useState(false);
  const [run, state] = useAction();
  const answers = answersFor(task.state, allowed);

  const answer = (label: string, taskstatus: number, edits: boolean) =>
    run(async () => {
      if (taskstatus === 4 && !comment.trim()) {
        setNeedComment(true);
        return;
      }
      setNeedComment(false);
      const body: Record<string, unknown> = { docResponse: { taskstatus, content: comment } };
      if (edits) {
        const changed = Object.fromEntries(
          Object.entries(values).filter(
            ([tag, v]) => JSON.stringify(v) !== JSON.stringify(doc.valuesByTags[tag]),
          ),
        );
        const newTags = tags
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        body.docForm = { valuesByTags: changed, _tags: newTags };
      }
      const { body: updated } = await call<Doc>(
        'PUT',
        `/api/v2/docForm/${enc(doc._id)}/docResponse/${task.respId}`,
        body,
      );
      onDone(
        updated,
        `${label}: done. The document is now in ${phaseName(updated.state)}, ${statusName(updated.status)}.`,
      );
    });

  return (
    <Section title="Your task" id="task">
      <p>
        {phaseName(task.state)} · stage {task.step} · iteration {task.iteration} · due{' '}
        <TaskDue
          due={line?.due ?? (task.datedue || undefined)}
          overdue={line?.overdue}
          remindedAt={line?.remindedAt}
          open
        />
      </p>
      <div class="field">
        <label for="task-comment">Comment</label>
        <textarea
          id="task-comment"
          rows={3}
          value={comment}
          aria-invalid={needComment ? 'true' : undefined}
          aria-describedby={needComment ? 'task-comment-error' : undefined}
          onInput={(e) => setComment((e.target as HTMLTextAreaElement).value)}
        />
        {needComment ? (
          <p id="task-comment-error" class="field-error">
            Say why you decline: a comment is needed.
          </p>
        ) : null}
      </div>
      {answers.some((a) => a.edits) ? (
        <details class="edits">
          <summary>Edit fields and tags (for an answer “with edits”)</summary>
          <ValuesEditor values={values} onChange={setValues} idPrefix="edit" />
          <div class="field">
            <label for="edit-tags">Tags (comma-separated)</label>
            <input
              id="edit-tags"
              value={tags}
              onInput={(e) => setTags((e.target as HTMLInputElement).value)}
            />
          </div>
        </details>
      ) : null}
      <div class="actions">
        {answers.map((a) => (
          <button
            type="button"
            key={a.label}
            class={a.taskstatus === 4 ? 'danger' : a.edits ? 'secondary' : undefined}
            disabled={state.busy}
            onClick={() => answer(a.label, a.taskstatus, a.edits)}
          >
            {a.label}
          </button>
        ))}
      </div>
      <ErrorBox error={state.error} />
    </Section>
  );
}

function ManagementPanel({ doc, onDone }: { doc: Doc; onDone: (doc: Doc, message: string) => void }) {
  const [run, state] = useAction();
  const actions = managementActions(doc.actions?.manage ?? []);
  if (!actions.length) return null;
  const act = (label: string, taskstatus: number) =>
    run(async () => {
      if (taskstatus >= 110 && !confirm(`${label} this document?`)) return;
      const { body } = await call<Doc>('POST', `/api/v2/docForm/${enc(doc._id)}/docResponse`, {
        docResponse: { taskstatus },
      });
      onDone(
        body,
        `${label}: done. The document is now in ${phaseName(body.state)}, ${statusName(body.status)}.`,
      );
    });
  return (
    <Section title="Manage the workflow" id="manage">
      <div class="actions">
        {actions.map((a) => (
          <button
            type="button"
            key={a.taskstatus}
            class={a.taskstatus >= 110 ? 'danger' : 'secondary'}
            disabled={state.busy}
            onClick={() => act(a.label, a.taskstatus)}
          >
            {a.label}
          </button>
        ))}
      </div>
      <ErrorBox error={state.error} />
    </Section>
  );
}

export function DocumentPage({ id }: { id: string }) {
  const [message, setMessage] = useState('');
  const doc = useLoad(
    () =>
      call<Doc>('GET', `/api/v2/docForm/${enc(id)}?embed=docResponse,recoData,actions,names`).then(
        (r) => r.body,
      ),
    id,
  );
  usePollWhile(doc.data?.recoStatus === 'pending', doc.reload);
  // The tasks of every participant, from the history: asked again with each revision of the document
  // (whoever brought it in: an action, Refresh or the recognition poll).
  const rev = doc.data?._meta._rev;
  const tasks = useLoad(
    () =>
      rev === undefined
        ? Promise.resolve(undefined)
        : call<HistoryEntry[]>('GET', `/api/v2/docForm/${enc(id)}/history`).then((r) => tasksOf(r.body)),
    `${id}@${rev}`,
  );
  const done = (_: Doc, text: string) => {
    setMessage(text);
    doc.reload();
  };
  if (doc.error && !doc.data)
    return (
      <>
        <h1>Document {id}</h1>
        <ErrorBox error={doc.error} />
      </>
    );
  if (!doc.data) return <Loading what="the document" />;
  const d = doc.data;
  const open = d.docResponse && d.docResponse.taskstatus === 0 ? d.docResponse : null;
  // The task the server takes an answer to from this caller now (`embed=actions`), if any.
  const answer = d.actions?.answer;
  const task = open && answer?.respId === open.respId ? open : null;
  return (
    <>
      <div class="page-head">
        <h1>
          {d.title ?? d.form}{' '}
          <span class="muted heading-id">
            {d.form} · {d._id_web}
          </span>
        </h1>
        <div class="actions">
          {d.actions?.history ? (
            <a class="button secondary" href={`#/doc/${enc(d._id_web)}/history`}>
              History
            </a>
          ) : null}
          <button type="button" class="secondary" onClick={doc.reload}>
            Refresh
          </button>
        </div>
      </div>
      {message ? (
        <p class="notice" role="status">
          {message}
        </p>
      ) : null}
      <ErrorBox error={doc.error} />
      <div class="columns">
        <div>
          {task && answer ? (
            <TaskPanel
              key={task.respId}
              doc={d}
              task={task}
              allowed={answer.taskstatus}
              line={tasks.data?.find((t) => t.respId === task.respId)}
              onDone={done}
            />
          ) : null}
          <Section title="Fields" id="fields">
            <FieldsTable values={d.valuesByTags} />
            <h3>Tags</h3>
            <TagList tags={d._tags} />
          </Section>
          <Section title="Attachments" id="attachments">
            <Attachments doc={d} />
          </Section>
          {d.recoStatus && d.recoStatus !== 'none' ? (
            <RecognitionSection doc={d} onValidated={(text) => done(d, text)} />
          ) : null}
        </div>
        <div>
          <Section title="Workflow" id="workflow">
            <WorkflowSummary doc={d} />
            {!task ? <p class="muted">No open task of yours on this document.</p> : null}
            <h3>Tasks</h3>
            <TasksTable doc={d} tasks={tasks} onDone={done} />
          </Section>
          <ManagementPanel doc={d} onDone={done} />
          <CommentsSection doc={d} />
        </div>
      </div>
    </>
  );
}
