/**
 * Which file hashes are attached to which documents, so that `allowDupl=false` can refuse a file whose
 * content a live document already holds. A document listed in `deleted_documents` holds nothing.
 *
 * A create claims its files for its new document before it appends DocumentCreated (`claim`: the
 * duplicate check and the attach in one SQLite transaction, so of two concurrent claims of one
 * content with `allowDupl=false` exactly one wins); a refused create releases its claim (`release`).
 * DocumentCreated from the bus records the same attachments again and marks the document created,
 * after which its files are never released.
 */
import type { LiveAttachmentsPage } from '@docflow/contracts';
import { checkpointStore, type LocalDb } from '@docflow/kit/eventsourcing';
import { decideClaim, decideRelease } from './businessLogic';
import type { AttachedFile } from './file';

export interface AttachmentIndex {
  /** Records that the created document `docId` holds `files` (its DocumentCreated); idempotent. */
  attach(docId: string, files: readonly AttachedFile[]): void;
  /**
   * Records that `docId`, not created yet, holds `files`, unless `allowDupl` is false and a live
   * document other than `docId` holds the content of one: then it throws a conflict and records
   * nothing. Check and record are one transaction. Claiming again is harmless.
   */
  claim(docId: string, files: readonly AttachedFile[], allowDupl: boolean): void;
  /** Forgets what `docId` claimed; throws a conflict when the document was created. */
  release(docId: string): void;
  /** Records that `docId` was deleted: its files no longer count for `isAttached` (they are still kept). */
  markDeleted(docId: string): void;
  /** True when a live document holds a file with this content. */
  isAttached(sha256: string): boolean;
  /** True when any document, deleted ones included, lists this file: such a file is never discarded. */
  isFileAttached(fileId: string): boolean;
  /**
   * Fills an index that was never rebuilt (new or lost) from the document service's live documents,
   * page by page; nothing once done. Throws when the document service does not answer.
   */
  rebuild(fetchPage: (after: string | undefined) => Promise<LiveAttachmentsPage>): Promise<void>;
  /** Whether the index holds every live document's files the document service had at a rebuild. */
  rebuilt(): boolean;
}

/** Marks, in the checkpoints table, that the index was rebuilt from the document service. */
const REBUILT = 'files-attachments-rebuilt';

export function createAttachmentIndex(db: LocalDb): AttachmentIndex {
  db.exec(`
    CREATE TABLE IF NOT EXISTS file_attachments (
      doc_id TEXT NOT NULL, file_id TEXT NOT NULL, sha256 TEXT NOT NULL, PRIMARY KEY (doc_id, file_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS file_attachments_by_sha256 ON file_attachments (sha256, doc_id);
    CREATE INDEX IF NOT EXISTS file_attachments_by_file ON file_attachments (file_id);
    CREATE TABLE IF NOT EXISTS deleted_documents (doc_id TEXT PRIMARY KEY) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS created_documents (doc_id TEXT PRIMARY KEY) WITHOUT ROWID;
  `);
  const insert = db.prepare(
    'INSERT OR IGNORE INTO file_attachments (doc_id, file_id, sha256) VALUES (?, ?, ?)',
  );
  const liveDocs = `NOT EXISTS (SELECT 1 FROM deleted_documents d WHERE d.doc_id = a.doc_id)`;
  const live = db.prepare<[string], { found: number }>(
    `SELECT 1 AS found FROM file_attachments a WHERE a.sha256 = ? AND ${liveDocs} LIMIT 1`,
  );
  const liveElsewhere = db.prepare<[string, string], { found: number }>(
    `SELECT 1 AS found FROM file_attachments a WHERE a.sha256 = ? AND a.doc_id <> ? AND ${liveDocs} LIMIT 1`,
  );
  const listed = db.prepare<[string], { found: number }>(
    'SELECT 1 AS found FROM file_attachments WHERE file_id = ? LIMIT 1',
  );
  const deleted = db.prepare('INSERT OR IGNORE INTO deleted_documents (doc_id) VALUES (?)');
  const created = db.prepare('INSERT OR IGNORE INTO created_documents (doc_id) VALUES (?)');
  const isCreated = db.prepare<[string], { found: number }>(
    'SELECT 1 AS found FROM created_documents WHERE doc_id = ?',
  );
  const forget = db.prepare('DELETE FROM file_attachments WHERE doc_id = ?');

  const insertAll = (docId: string, files: readonly AttachedFile[]) => {
    for (const file of files) insert.run(docId, file.id, file.sha256);
  };
  const attachAll = db.transaction((docId: string, files: readonly AttachedFile[]) => {
    insertAll(docId, files);
    created.run(docId);
  });
  const claimAll = db.transaction((docId: string, files: readonly AttachedFile[], allowDupl: boolean) => {
    const heldElsewhere = new Set(
      files.filter((f) => liveElsewhere.get(f.sha256, docId) !== undefined).map((f) => f.sha256),
    );
    insertAll(docId, decideClaim({ files, allowDupl }, { heldElsewhere }));
  });
  const releaseAll = db.transaction((docId: string) => {
    decideRelease({ created: isCreated.get(docId) !== undefined });
    forget.run(docId);
  });

  const attachPage = db.transaction((documents: LiveAttachmentsPage['documents']) => {
    for (const { id, files } of documents) attachAll(id, files);
  });
  const checkpoints = checkpointStore(db);

  return {
    async rebuild(fetchPage) {
      if (checkpoints.load(REBUILT)) return;
      for (let after: string | undefined, more = true; more; ) {
        const page: LiveAttachmentsPage = await fetchPage(after);
        attachPage(page.documents);
        after = page.next ?? undefined;
        more = page.next !== null;
      }
      checkpoints.save(REBUILT, new Date().toISOString());
    },
    rebuilt: () => checkpoints.load(REBUILT) !== undefined,
    attach: (docId, files) => attachAll(docId, files),
    claim: (docId, files, allowDupl) => claimAll(docId, files, allowDupl),
    release: (docId) => releaseAll(docId),
    markDeleted: (docId) => {
      deleted.run(docId);
    },
    isAttached: (sha256) => live.get(sha256) !== undefined,
    isFileAttached: (fileId) => listed.get(fileId) !== undefined,
  };
}
