/** Helpers for document API tests: multipart bodies, account set-up and waiting for views. */
import type { Api, CallOptions } from './http';

export interface UploadFile {
  name: string;
  content: Uint8Array | string;
  type?: string;
}

export interface CreateParts {
  docForm?: unknown;
  docResponse?: unknown;
  files?: UploadFile[];
  /** Raw text for the docForm part (to send malformed JSON). */
  rawDocForm?: string;
}

export function multipart(parts: CreateParts): FormData {
  const form = new FormData();
  if (parts.rawDocForm !== undefined) form.append('docForm', parts.rawDocForm);
  else if (parts.docForm !== undefined) form.append('docForm', JSON.stringify(parts.docForm));
  if (parts.docResponse !== undefined) form.append('docResponse', JSON.stringify(parts.docResponse));
  for (const f of parts.files ?? [])
    form.append('files', new Blob([f.content], { type: f.type ?? 'application/octet-stream' }), f.name);
  return form;
}

export async function createDoc(
  baseUrl: string,
  key: string,
  formName: string,
  parts: CreateParts,
  options: { query?: string; runAs?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers, authorization: `Bearer ${key}` };
  if (options.runAs) headers['svc-run-as'] = options.runAs;
  const res = await fetch(`${baseUrl}/api/v2/docForm/form/${formName}${options.query ?? ''}`, {
    method: 'POST',
    headers,
    body: multipart(parts),
  });
  const text = await res.text();
  const body = /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
  return { status: res.status, headers: res.headers, body, text };
}

/** Polls `fn` until `ok` holds (views converge within a bounded time), then returns the last value. */
export async function eventually<T>(
  fn: () => Promise<T>,
  ok: (v: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** How long a test waits for a document's recognition to end. */
export const RECOGNITION_WAIT_MS = 120_000;

/**
 * Creates a document of `formName` with `file` (as `key`), then waits until its recognition is no longer
 * pending: answers the document as `reader` (default: `key`) reads it with `?embed=recoData`.
 */
export async function createRecognised(
  api: Api,
  baseUrl: string,
  key: string,
  formName: string,
  file: UploadFile,
  reader: CallOptions = { key },
) {
  const created = await createDoc(baseUrl, key, formName, { docForm: {}, files: [file] });
  if (created.status !== 201) throw new Error(`create ${formName}: ${created.status} ${created.text}`);
  return eventually(
    () => api('GET', `/api/v2/docForm/${created.body._id}?embed=recoData`, reader),
    (r) => r.status === 200 && r.body.recoStatus !== 'pending',
    RECOGNITION_WAIT_MS,
  );
}

export async function createPerson(api: Api, adminKey: string, email: string, roles: string[] = []) {
  const res = await api('POST', '/api/admin/v1/accounts', {
    key: adminKey,
    body: { kind: 'person', email, name_first: email.split('@')[0], name_last: 'Test', roles },
  });
  if (res.status !== 201) throw new Error(`create ${email}: ${res.status} ${res.text}`);
  return res.body._id_sys as string;
}
