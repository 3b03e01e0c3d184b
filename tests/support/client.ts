/** Set-up for API suites that act as a client system through `@docflow/client`. */
import assert from 'node:assert/strict';
import { createDocflowClient, type DocflowClient, DocflowProblem } from '@docflow/client';

export interface ClientSystem {
  admin: DocflowClient;
  /** The service account a client system uses (no roles: it acts as users with `as`). */
  service: DocflowClient;
  serviceKey: string;
  /** System ids of the persons made, by e-mail. */
  ids: Record<string, string>;
}

/**
 * The admin makes `persons` (e-mails) and a service account, and puts form `form`: one approval
 * stage whose participant is `approver`.
 */
export async function setUpClientSystem(
  baseUrl: string,
  adminKey: string,
  setup: { persons: string[]; form: string; approver: string },
): Promise<ClientSystem> {
  const admin = createDocflowClient({ baseUrl, apiKey: adminKey });
  const ids: Record<string, string> = {};
  for (const email of setup.persons) {
    const { data } = await admin.api.POST('/api/admin/v1/accounts', {
      body: { kind: 'person', email, name_first: email.split('@')[0]!, name_last: 'Test' },
    });
    ids[email] = data!._id_sys;
  }
  const { data, response } = await admin.api.POST('/api/admin/v1/accounts', {
    body: { kind: 'service', email: 'portal@example.com', name_first: 'P', name_last: 'S' },
  });
  assert.equal(response.status, 201);
  assert.ok(data?.apiKey, 'a service account gets its API key once');
  await admin.api.PUT('/api/admin/v1/forms/{formName}', {
    params: { path: { formName: setup.form } },
    body: {
      name: setup.form,
      title: `Form ${setup.form}`,
      formsystype: 9,
      tags: { subject: 'string' },
      workflow: { approval: { stages: [{ participants: [setup.approver] }] } },
    },
  });
  const service = createDocflowClient({ baseUrl, apiKey: data.apiKey });
  return { admin, service, serviceKey: data.apiKey, ids };
}

/** The `DocflowProblem` a call is refused with; fails when it succeeds. */
export function refusal(call: Promise<unknown>): Promise<DocflowProblem> {
  return call.then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => {
      assert.ok(e instanceof DocflowProblem, String(e));
      return e;
    },
  );
}
