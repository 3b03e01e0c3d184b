/** What the event mapping remembers of each document (form, workflow position), in the local database. */
import type { LocalDb } from '@docflow/kit/eventsourcing';
import type { DocumentFacts } from './event-mapping';

export function documentFactsStore(db: LocalDb) {
  db.exec('CREATE TABLE IF NOT EXISTS webhook_documents (document_id TEXT PRIMARY KEY, facts TEXT NOT NULL)');
  const select = db.prepare<[string], { facts: string }>(
    'SELECT facts FROM webhook_documents WHERE document_id = ?',
  );
  const upsert = db.prepare(
    'INSERT INTO webhook_documents (document_id, facts) VALUES (?, ?) ON CONFLICT(document_id) DO UPDATE SET facts = excluded.facts',
  );
  return {
    get(documentId: string): DocumentFacts | undefined {
      const row = select.get(documentId);
      return row && (JSON.parse(row.facts) as DocumentFacts);
    },
    put(documentId: string, facts: DocumentFacts): void {
      upsert.run(documentId, JSON.stringify(facts));
    },
  };
}
export type DocumentFactsStore = ReturnType<typeof documentFactsStore>;
