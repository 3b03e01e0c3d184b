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
  /** A new document of `form` whose workflow is started, by the author. */
  started(form: string): Promise<string>;
  /** `user`'s open task on the document (null when there is none). */
  openTask(id: string, user: string): Promise<any>;
  /** Whether the document is in `user`'s inbox. */
  inInbox(id: string, user: string): Promise<boolean>;
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
  };
  for (const name of people) await cast.person(name);
  return cast;
}
