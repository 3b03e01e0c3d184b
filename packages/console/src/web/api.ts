/** The REST API as the console calls it: every failure becomes an ApiError from the problem+json body. */
import { loadSession } from './session';

export interface FieldIssue {
  pointer?: string;
  message: string;
}

/** An RFC 9457 problem (or a network failure) as the console shows it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly errors: FieldIssue[] = [],
  ) {
    super(detail ? `${title}: ${detail}` : title);
  }
}

/**
 * A key session sends its key (and run-as); a signed-in person sends nothing: the browser adds the
 * session cookie to these same-origin calls, and its own `Origin` and `Sec-Fetch-Site` headers on unsafe
 * ones, which is the CSRF check the gateway makes (no token header is expected).
 */
function authHeaders(): Record<string, string> {
  const session = loadSession();
  const headers: Record<string, string> = {};
  if (session?.kind !== 'key') return headers;
  headers.authorization = `Bearer ${session.key}`;
  if (session.runAs) headers['svc-run-as'] = session.runAs;
  return headers;
}

function problemFrom(status: number, statusText: string, text: string): ApiError {
  try {
    const p = JSON.parse(text) as { title?: string; detail?: string; errors?: FieldIssue[] };
    return new ApiError(status, p.title ?? `HTTP ${status}`, p.detail ?? '', p.errors ?? []);
  } catch {
    return new ApiError(status, `HTTP ${status} ${statusText}`.trim(), text.slice(0, 500));
  }
}

async function send(method: string, path: string, body?: unknown): Promise<Response> {
  const headers = authHeaders();
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, 'The server could not be reached', String(err));
  }
  if (!res.ok) throw problemFrom(res.status, res.statusText, await res.text());
  return res;
}

export interface JsonAnswer<T> {
  body: T;
  headers: Headers;
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<JsonAnswer<T>> {
  const res = await send(method, path, body);
  const text = await res.text();
  return { body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
}

export const get = async <T>(path: string): Promise<T> => (await call<T>('GET', path)).body;

/** A GET with an API key not signed in with yet (the sign-in form's run-as lookup). */
export async function getWithKey<T>(key: string, path: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { headers: { authorization: `Bearer ${key}` } });
  } catch (err) {
    throw new ApiError(0, 'The server could not be reached', String(err));
  }
  if (!res.ok) throw problemFrom(res.status, res.statusText, await res.text());
  return (await res.json()) as T;
}

/** An object URL of what `path` answers, fetched with the caller's credentials (an <img> sends none). */
export async function blobUrl(path: string): Promise<string> {
  return URL.createObjectURL(await (await send('GET', path)).blob());
}

/** Downloads an attachment with the caller's credentials (a plain link would carry none). */
export async function download(path: string, fileName: string): Promise<void> {
  const blob = await (await send('GET', path)).blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A multipart POST through XMLHttpRequest, whose upload events report progress (fetch has none). */
export function upload<T>(
  path: string,
  form: FormData,
  onProgress: (sent: number, total: number) => void,
): Promise<JsonAnswer<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : 0);
    xhr.onerror = () => reject(new ApiError(0, 'The upload failed', 'the connection was interrupted'));
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(problemFrom(xhr.status, xhr.statusText, xhr.responseText));
        return;
      }
      const headers = new Headers();
      const xError = xhr.getResponseHeader('x-error');
      if (xError) headers.set('x-error', xError);
      resolve({ body: JSON.parse(xhr.responseText) as T, headers });
    };
    xhr.send(form);
  });
}

export const enc = encodeURIComponent;
