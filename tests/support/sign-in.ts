/** Password sign-in for API tests: signs a person in and keeps the session cookie it set. */
import assert from 'node:assert/strict';
import { type Api, type ApiResponse, apiClient } from './http';

export const SESSION_COOKIE = 'docflow_session';

/** The `name=value` of the session cookie an answer set, if it set one. */
export function sessionCookieOf(res: ApiResponse): string | undefined {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  return set?.split(';')[0];
}

export async function signIn(
  baseUrl: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<{ res: ApiResponse; cookie: string }> {
  const res = await apiClient(baseUrl)('POST', '/api/auth/v1/login', { body: { email, password }, headers });
  assert.equal(res.status, 200, res.text);
  const cookie = sessionCookieOf(res);
  assert.ok(cookie, 'the sign-in sets the session cookie');
  return { res, cookie };
}

/** An API client whose every call carries `cookie` (and the headers given per call). */
export function withCookie(baseUrl: string, cookie: string): Api {
  const api = apiClient(baseUrl);
  return (method, path, options = {}) =>
    api(method, path, { ...options, headers: { cookie, ...options.headers } });
}

/** Polls `call` (bounded) until its status is `status`; returns the last answer. */
export async function untilStatus(
  call: () => Promise<ApiResponse>,
  status: number,
  attempts = 100,
): Promise<ApiResponse> {
  let res = await call();
  for (let i = 1; i < attempts && res.status !== status; i++) {
    await new Promise((r) => setTimeout(r, 50));
    res = await call();
  }
  return res;
}

/** A person `<name>@example.com` (named `<name> Tester`, with `roles`) who signs in with `password`: its id. */
export async function createPersonWithPassword(
  api: Api,
  adminKey: string,
  name: string,
  password: string,
  roles: string[] = [],
): Promise<string> {
  const res = await api('POST', '/api/admin/v1/accounts', {
    key: adminKey,
    body: { kind: 'person', email: `${name}@example.com`, name_first: name, name_last: 'Tester', roles },
  });
  assert.equal(res.status, 201, res.text);
  const id = res.body._id_sys as string;
  const pwd = await api('POST', '/api/v2/person', { key: adminKey, body: { _id_sys: id, pwd: password } });
  assert.equal(pwd.status, 200, pwd.text);
  return id;
}
