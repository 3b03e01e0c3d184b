/** A document's comment thread: who wrote what when, as text (never rendered as markup), and a box to add one. */
import { useState } from 'preact/hooks';
import { call, enc } from './api';
import { type Doc, formatTime } from './model';
import { Person } from './person';
import { ErrorBox, Loading, Section, useAction, useLoad } from './ui';

interface Comment {
  id: string;
  author: string;
  at: string;
  text: string;
}

export function CommentsSection({ doc }: { doc: Doc }) {
  const path = `/api/v2/docForm/${enc(doc._id)}/comments`;
  const thread = useLoad(
    () => call<Comment[]>('GET', path).then((r) => r.body),
    `${doc._id}@${doc._meta._rev}`,
  );
  const [text, setText] = useState('');
  const [run, state] = useAction();
  const add = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      await call<Comment>('POST', path, { text });
      setText('');
      thread.reload();
    });
  };
  return (
    <Section title="Comments" id="comments">
      {thread.error ? <ErrorBox error={thread.error} /> : null}
      {!thread.data ? (
        <Loading what="the comments" />
      ) : thread.data.length ? (
        <ol class="comments">
          {thread.data.map((c) => (
            <li key={c.id}>
              <div class="timeline-head">
                <strong>
                  <Person id={c.author} names={doc.names} />
                </strong>{' '}
                <time dateTime={c.at}>{formatTime(c.at)}</time>
              </div>
              {/* As text: Preact escapes it, so markdown or HTML in a comment shows as written. */}
              <p class="comment-text">{c.text}</p>
            </li>
          ))}
        </ol>
      ) : (
        <p class="muted">No comments yet.</p>
      )}
      <form onSubmit={add}>
        <label for="comment-text">Add a comment</label>
        <textarea
          id="comment-text"
          rows={3}
          maxLength={10_000}
          value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        />
        <div class="actions">
          <button type="submit" disabled={state.busy || !text.trim()}>
            Comment
          </button>
        </div>
        <ErrorBox error={state.error} />
      </form>
    </Section>
  );
}
