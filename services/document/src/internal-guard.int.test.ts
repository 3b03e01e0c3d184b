/**
 * The document service's internal routes answer only a caller with the internal token: each answers
 * documents' facts (their files' hashes, their `DocumentCreated`, their workflow position), and a
 * service port reached directly grants nothing (DESIGN.md).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createInProcessBus } from '@docflow/bus';
import { createSqliteEventStore } from '@docflow/eventstore';
import { createLogger } from '@docflow/kit';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { inProcessClient } from '@docflow/kit/http';
import { createDocumentService } from './service';

const PATHS = [
  '/internal/v1/live-attachments',
  '/internal/v1/pending-recognition',
  `/internal/v1/documents/${'a'.repeat(24)}/position?rev=1`,
];

describe('document service internal routes', () => {
  it('answer 401 without the internal token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docflow-document-guard-'));
    const store = createSqliteEventStore({ file: join(dir, 'events.db') });
    const bus = createInProcessBus();
    const db = openLocalDb(join(dir, 'local.db'));
    const nobody = inProcessClient(() => new Response(null, { status: 503 }));
    const document = createDocumentService({
      service: 'document',
      instanceId: 'test',
      store,
      bus,
      db,
      log: createLogger('document', 'silent'),
      namespace: 'document-guard-test',
      internalToken: 'test-internal-token-of-at-least-32-chars',
      identity: nobody,
      files: nobody,
      workflow: nobody,
      recognition: nobody,
      maxCreateBytes: 1024,
    });
    try {
      for (const path of PATHS) {
        const res = await document.app.request(path);
        assert.equal(res.status, 401, path);
        const wrong = await document.app.request(path, { headers: { 'x-docflow-internal-token': 'wrong' } });
        assert.equal(wrong.status, 401, path);
      }
    } finally {
      await bus.close();
      await store.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
