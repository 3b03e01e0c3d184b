/**
 * The cast the workflow API suites share on a started target: people by name (`<name>@example.com`,
 * "<name> Example"), the first of them the author, and a portal, a service account without roles through
 * which they act with svc-run-as; with the calls those suites make as one of them.
 */
import assert from 'node:assert/strict';
import { createDoc } from './documents';
import { type Api, apiClient, type CallOptions } from './http';
import type { Target } from './targets';

export interface WorkflowCast {
  readonly api: Api;
  /** The portal's API key. */
  readonly svc: string;
  /** Account ids by name. */
  readonly u: Record<string, string>;
  /** The call options that act as `user` through the portal. */
  as(user: string): CallOptions;
  /** Creates a person `name` (with `roles`), its id then in `u`. */
  person(name: string, roles?: string[]): Promise<string>;
  /** Creates a service account `email` holding `roles` (named `name` in histories); answers its API key. */
  serviceAccount(email: string, roles: string[], name?: [first: string, last: string]): Promise<string>;
  /** A new document of `form` whose workflow is started, by the author. */
  started(form: string): Promise<string>;
  /** `user`'s open task on the document (null when there is none). */
  openTask(id: string, user: string): Promise<any>;
  /** Whether the document is in `user`'s inbox. */
  inInbox(id: string, user: string): Promise<boolean>;
  /** POST …/reassign of task `respId` to `to` (an e-mail or an id), as `options` say. */
  reassign(id: string, respId: string, options: CallOptions, to: string, reason?: string): Promise<any>;
}

export async function workflowCast(
  target: Target,
  people: readonly [string, ...string[]],
): Promise<WorkflowCast> {
  const api = apiClient(target.baseUrl);
  const u: Record<string, string> = {};
  const portal = await api('POST', '/api/admin/v1/accounts', {
    key: target.adminKey,
    body: { kind: 'service', email: 'portal@example.com', name_first: 'Portal', name_last: 'Service' },
  });
  assert.equal(portal.status, 201, portal.text);
  const svc: string = portal.body.apiKey;
  const as = (user: string): CallOptions => ({ key: svc, runAs: u[user] });
  const cast: WorkflowCast = {
    api,
    svc,
    u,
    as,
    async person(name, roles = []) {
      const res = await api('POST', '/api/admin/v1/accounts', {
        key: target.adminKey,
        body: { kind: 'person', email: `${name}@example.com`, name_first: name, name_last: 'Example', roles },
      });
      assert.equal(res.status, 201, res.text);
      u[name] = res.body._id_sys;
      return res.body._id_sys;
    },
    async serviceAccount(email, roles, [name_first, name_last] = ['Service', 'Account']) {
      const res = await api('POST', '/api/admin/v1/accounts', {
        key: target.adminKey,
        body: { kind: 'service', email, name_first, name_last, roles },
      });
      assert.equal(res.status, 201, res.text);
      return res.body.apiKey;
    },
    async started(form) {
      const res = await createDoc(
        target.baseUrl,
        svc,
        form,
        { docResponse: { taskstatus: 100 } },
        { runAs: u[people[0]] },
      );
      assert.equal(res.status, 201, res.text);
      return res.body._id;
    },
    openTask: async (id, user) =>
      (await api('GET', `/api/v2/docForm/${id}?embed=docResponse`, as(user))).body.docResponse,
    inInbox: async (id, user) =>
      (await api('GET', '/api/v2/docForm/view/inbox?pageSize=100', as(user))).body.some(
        (d: { _id: string }) => d._id === id,
      ),
    reassign: (id, respId, options, to, reason = 'on holiday') =>
      api('POST', `/api/v2/docForm/${id}/docResponse/${respId}/reassign`, {
        ...options,
        body: { to, reason },
      }),
  };
  for (const name of people) await cast.person(name);
  return cast;
}
