/** Givens of the create steps' tests: a create command, a call context and a real SQLite event store. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Role } from '@docflow/contracts';
import { createSqliteEventStore, type EventStore } from '@docflow/eventstore';
import { inProcessClient, type ServiceClient } from '@docflow/kit/http';
import type { CallContext } from '../../calls/identity-calls';
import type { CreateDocument } from '../businessLogic';
import { AUTHOR, FILE, FORM, principal, T0 } from '../test-fixtures';

export const NEW_DOC_ID = 'd0c0000000000000000000c1';
export const TOKEN = 'test-internal-token-of-at-least-32-chars';

export const command = (overrides: Partial<CreateDocument> = {}): CreateDocument => ({
  id: NEW_DOC_ID,
  form: FORM,
  author: AUTHOR,
  valuesByTags: { subject: 'Budget' },
  tags: ['finance'],
  files: [FILE],
  now: new Date(T0),
  idp: { idpLangs: 'eng', idpFrpr: false },
  ...overrides,
});

/** The author creating, with or without svcAdminDocsRW. */
export const context = (...roles: Role[]): CallContext => ({
  principal: principal(AUTHOR, ...roles),
  ids: { requestId: 'req-1', correlationId: 'corr-1' },
});

/** A service answering each request with `answer`, recording the requests' method and path. */
export function peer(answer: (request: Request) => Response | Promise<Response>) {
  const asked: string[] = [];
  const client: ServiceClient = inProcessClient(async (request) => {
    asked.push(`${request.method} ${new URL(request.url).pathname}`);
    return answer(request);
  });
  return { asked, client };
}

/** A SQLite event store in a fresh directory; `close` removes it. */
export function tempStore(): { store: EventStore; close(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-create-'));
  const store = createSqliteEventStore({ file: join(dir, 'events.db') });
  return {
    store,
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
