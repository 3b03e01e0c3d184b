/**
 * Which file hashes are attached to which documents, so that `allowDupl=false` can refuse a file whose
 * content a live document already holds. A document listed in `deleted_documents` holds nothing.
 */
import type { LocalDb } from '@docflow/kit/eventsourcing';

export interface AttachedFile {
  id: string;
  sha256: string;
}

export interface AttachmentIndex {
  /** Records that `docId` holds `files`; applying the same facts again changes nothing. */
  attach(docId: string, files: readonly AttachedFile[]): void;
  /** Records that `docId` was deleted: its files no longer count for `isAttached` (they are still kept). */
  markDeleted(docId: string): void;
  /** True when a live document holds a file with this content. */
  isAttached(sha256: string): boolean;
  /** True when any document, deleted ones included, lists this file: such a file is never discarded. */
  isFileAttached(fileId: string): boolean;
}

export function createAttachmentIndex(db: LocalDb): AttachmentIndex {
  db.exec(`
    CREATE TABLE IF NOT EXISTS file_attachments (
      doc_id TEXT NOT NULL, file_id TEXT NOT NULL, sha256 TEXT NOT NULL, PRIMARY KEY (doc_id, file_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS file_attachments_by_sha256 ON file_attachments (sha256, doc_id);
    CREATE INDEX IF NOT EXISTS file_attachments_by_file ON file_attachments (file_id);
    CREATE TABLE IF NOT EXISTS deleted_documents (doc_id TEXT PRIMARY KEY) WITHOUT ROWID;
  `);
  const insert = db.prepare(
    'INSERT OR IGNORE INTO file_attachments (doc_id, file_id, sha256) VALUES (?, ?, ?)',
  );
  const live = db.prepare<[string], { found: number }>(`
    SELECT 1 AS found FROM file_attachments a
    WHERE a.sha256 = ? AND NOT EXISTS (SELECT 1 FROM deleted_documents d WHERE d.doc_id = a.doc_id)
    LIMIT 1`);
  const listed = db.prepare<[string], { found: number }>(
    'SELECT 1 AS found FROM file_attachments WHERE file_id = ? LIMIT 1',
  );
  const deleted = db.prepare('INSERT OR IGNORE INTO deleted_documents (doc_id) VALUES (?)');
  const attachAll = db.transaction((docId: string, files: readonly AttachedFile[]) => {
    for (const file of files) insert.run(docId, file.id, file.sha256);
  });

  return {
    attach: (docId, files) => attachAll(docId, files),
    markDeleted: (docId) => {
      deleted.run(docId);
    },
    isAttached: (sha256) => live.get(sha256) !== undefined,
    isFileAttached: (fileId) => listed.get(fileId) !== undefined,
  };
}
