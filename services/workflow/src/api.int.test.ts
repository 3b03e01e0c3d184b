/**
 * The workflow service's command API against the embedded adapters: a command sent with the stream's
 * expected revision (the document's If-Match) is decided on the state it is appended to, so of several
 * sent at once with the same one exactly one is appended and the others are refused with 412.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createInProcessBus } from '@docflow/bus';
import { type WorkflowCommandRequest, WorkflowCommandResponse, workflowStream } from '@docflow/contracts';
import { createSqliteEventStore } from '@docflow/eventstore';
import { createLogger, newHexId } from '@docflow/kit';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { encodePrincipal, INTERNAL_TOKEN_HEADER, inProcessClient, PRINCIPAL_HEADER } from '@docflow/kit/http';
import { createWorkflowService } from './service';

const TOKEN = 'test-internal-token-of-at-least-32-chars';
const AUTHOR = 'usr-00000000-0000-4000-8000-00000000000a';
const BOB = 'usr-00000000-0000-4000-8000-00000000000b';
const REGISTRATION: WorkflowCommandRequest['registration'] = {
  form: 'race',
  author: AUTHOR,
  workflow: { approval: { stages: [{ participants: ['bob@example.com'] }] } },
};

describe('workflow commands with an expected revision', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-workflow-api-'));
  const store = createSqliteEventStore({ file: join(dir, 'events.db') });
  const bus = createInProcessBus();
  const db = openLocalDb(join(dir, 'local.db'));
  const identity = inProcessClient(() =>
    Response.json({
      accounts: { 'bob@example.com': { id: BOB, kind: 'person', active: true, deputy: null } },
    }),
  );
  const service = createWorkflowService({
    service: 'workflow',
    store,
    bus,
    db,
    log: createLogger('workflow-test', 'silent'),
    namespace: 'workflow-api-test',
    internalToken: TOKEN,
    identity,
    // Asked by the e-mail notifications only, which are off here (no SMTP server).
    document: inProcessClient(() => new Response(null, { status: 500 })),
  });
  after(async () => {
    await bus.close();
    await store.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (docId: string, body: Omit<WorkflowCommandRequest, 'registration'>) =>
    service.app.request(`/internal/v1/workflows/${docId}/commands`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [INTERNAL_TOKEN_HEADER]: TOKEN,
        [PRINCIPAL_HEADER]: encodePrincipal({ account: AUTHOR, subject: AUTHOR, roles: [] }),
      },
      body: JSON.stringify({ registration: REGISTRATION, ...body }),
    });

  let docId: string;
  let revision: number;
  before(async () => {
    docId = newHexId();
    const started = await send(docId, { command: { kind: 'create', taskstatus: 100 } });
    assert.equal(started.status, 200);
    revision = WorkflowCommandResponse.parse(await started.json()).events.length;
    assert.equal((await store.readStream(workflowStream(docId))).length, revision);
  });

  it('a stale expected revision is 412 and appends nothing', async () => {
    const res = await send(docId, {
      command: { kind: 'manage', taskstatus: 101 },
      expectedRevision: revision - 1,
    });
    assert.equal(res.status, 412);
    assert.equal((await store.readStream(workflowStream(docId))).length, revision);
  });

  it('six commands sent at once with the current one: one appended, five 412', async () => {
    const moves = [101, 103, 104, 101, 103, 104];
    const answers = await Promise.all(
      moves.map((taskstatus) =>
        send(docId, { command: { kind: 'manage', taskstatus }, expectedRevision: revision }),
      ),
    );
    const statuses = answers.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 412, 412, 412, 412, 412]);
    const winner = WorkflowCommandResponse.parse(await answers.find((r) => r.status === 200)!.json());
    const events = await store.readStream(workflowStream(docId));
    assert.deepEqual(
      events.slice(revision).map((e) => e.id),
      winner.events.map((e) => e.id),
      'only the winner appended',
    );
  });
});
