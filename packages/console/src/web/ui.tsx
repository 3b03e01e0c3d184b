/** Small shared pieces: loading state, the problem box, a hash router, value rendering. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from './api';
import type { TagValue } from './model';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when `key` changes (and on `reload`), keeping the last data while it reloads. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setLoading(true);
    load().then(
      (value) => {
        if (!current) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (err: unknown) => {
        if (!current) return;
        setError(err);
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
  }, [key, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { data, error, loading, reload };
}

/** The problem's title and detail (and per-field issues), never a blank page. */
export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const problem =
    error instanceof ApiError
      ? error
      : new ApiError(0, 'Something went wrong', String((error as Error)?.message ?? error));
  return (
    <div class="problem" role="alert">
      <p class="problem-title">
        {problem.title}
        {problem.status ? <span class="problem-status"> ({problem.status})</span> : null}
      </p>
      {problem.detail ? <p class="problem-detail">{problem.detail}</p> : null}
      {problem.errors.length ? (
        <ul class="problem-errors">
          {problem.errors.map((e) => (
            <li key={`${e.pointer}:${e.message}`}>
              {e.pointer ? <code>{e.pointer}</code> : null} {e.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** What a save answered: the problem box if it failed, else the `saved` notice (if any). */
export function SaveOutcome({ error, saved }: { error: unknown; saved: string }) {
  return (
    <>
      <ErrorBox error={error} />
      {saved ? (
        <p class="notice" role="status">
          {saved}
        </p>
      ) : null}
    </>
  );
}

export const Loading = ({ what }: { what: string }) => (
  <p class="loading" role="status">
    Loading {what}…
  </p>
);

/** The current `#/…` route, split into path segments and query. */
export interface Route {
  parts: string[];
  query: URLSearchParams;
}

function readRoute(): Route {
  const hash = location.hash.replace(/^#\/?/, '');
  const [path = '', search = ''] = hash.split('?');
  return {
    parts: path.split('/').filter(Boolean).map(decodeURIComponent),
    query: new URLSearchParams(search),
  };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(readRoute);
  useEffect(() => {
    const changed = () => setRoute(readRoute());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

export const go = (path: string) => {
  location.hash = `#${path}`;
};

export const docLink = (id: string) => `#/doc/${encodeURIComponent(id)}`;

export function ValueView({ value }: { value: TagValue | undefined }) {
  if (value === undefined || value === '') return <span class="muted">—</span>;
  if (typeof value === 'string') return <span class="value">{value}</span>;
  return (
    <table class="value-table">
      <tbody>
        {value.map((row, r) => (
          <tr key={r}>
            {row.map((cell, c) => (
              <td key={c}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Section({
  title,
  children,
  id,
}: {
  title: string;
  children: ComponentChildren;
  id?: string;
}) {
  const headingId = `${id ?? title.toLowerCase().replace(/\W+/g, '-')}-heading`;
  return (
    <section class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}

/** `done`: an async action's state for a button: busy while running, its error after. */
export function useAction(): [
  (fn: () => Promise<void>) => Promise<void>,
  { busy: boolean; error: unknown; clear: () => void },
] {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await fn();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return [run, { busy, error, clear: () => setError(undefined) }];
}

/**
 * A labelled select of [value, text] pairs, selecting `initial` when it is mounted. Uncontrolled: a
 * controlled select would be set back to its value prop whenever the page re-renders (a listing that
 * arrives after the user chose, say), and the form would submit the old choice. A filter form takes a
 * `key` of its route, so it is mounted anew with the route's values.
 */
export function Choice(props: {
  label: string;
  name: string;
  initial: string;
  options: readonly (readonly [string | number, string | number])[];
}) {
  return (
    <label>
      {props.label}
      <select name={props.name}>
        {props.options.map(([value, text]) => (
          <option key={value} value={value} selected={String(value) === props.initial}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

const PAGE_SIZES = [10, 25, 50, 100].map((n) => [n, n] as const);

/** The `pageSize` select of a listing's filters. */
export const PageSizeChoice = ({ initial }: { initial: number }) => (
  <Choice label="Per page" name="pageSize" initial={String(initial)} options={PAGE_SIZES} />
);

/** Previous and next page of a listing that starts at `first`, `total` items in all. */
export function Pager(props: {
  first: number;
  pageSize: number;
  total: number;
  onPage: (first: number) => void;
}) {
  const { first, pageSize, total, onPage } = props;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={first === 0} onClick={() => onPage(first - pageSize)}>
        ← Previous
      </button>
      <span>
        Page {Math.floor(first / pageSize) + 1} of {Math.max(1, Math.ceil(total / pageSize))}
      </span>
      <button type="button" disabled={first + pageSize >= total} onClick={() => onPage(first + pageSize)}>
        Next →
      </button>
    </nav>
  );
}
