/**
 * The document service's internal routes answer only a caller with the internal token: each answers
 * documents' facts (their files' hashes, their `DocumentCreated`, their workflow position), and a
 * service port reached directly grants nothing (DESIGN.md).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sqliteDocumentService } from './testing/sqlite-document';

const PATHS = [
  '/internal/v1/live-attachments',
  '/internal/v1/pending-recognition',
  `/internal/v1/documents/${'a'.repeat(24)}/position?rev=1`,
];

describe('document service internal routes', () => {
  it('answer 401 without the internal token', async () => {
    const { document, close } = sqliteDocumentService(
      'document-guard-test',
      'test-internal-token-of-at-least-32-chars',
    );
    try {
      for (const path of PATHS) {
        const res = await document.app.request(path);
        assert.equal(res.status, 401, path);
        const wrong = await document.app.request(path, { headers: { 'x-docflow-internal-token': 'wrong' } });
        assert.equal(wrong.status, 401, path);
      }
    } finally {
      await close();
    }
  });
});
