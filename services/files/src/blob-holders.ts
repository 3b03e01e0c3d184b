/**
 * When a blob may be deleted. Blobs are content-addressed (the key is the SHA-256), so several files
 * can hold one blob, and an upload of the same content can finish while the last other file holding
 * it is discarded. Within this process the two are serialised per blob:
 * - an upload, after its put published the blob, records FileStored under the blob's lock, and only
 *   once the blob is confirmed still there (a release may have deleted it after the put found or
 *   wrote it; the body is consumed, so the caller is told to retry: 503);
 * - a release, under the same lock, waits until the stored-files table holds every file event of the
 *   store, and deletes the blob only when no file that is not discarded holds it.
 * So a FileStored recorded before a release took the lock is counted, and one recorded after it found
 * the blob present. Across processes sharing one bucket see docs/decisions.md.
 */
import { BlobNotFound, type BlobStore } from '@docflow/blobstore';
import type { KeyedLock } from '@docflow/kit';
import { problems } from '@docflow/kit/http';
import type { StoredFileRow, StoredFilesTable } from './stored-files';
import type { StoredFilesProjection } from './stored-files-projection';

/** How long a release waits for the table to catch up before leaving the blob to the next sweep. */
const CATCH_UP_MS = 5_000;

export interface BlobHolders {
  /** Runs `record` (the append of FileStored) under the blob's lock once the blob is confirmed present. */
  hold<T>(blobKey: string, record: () => Promise<T>): Promise<T>;
  /**
   * For a discarded file: deletes its blob unless another file that is not discarded holds it, and
   * marks the file released. False when the table did not catch up in time: a later sweep retries.
   */
  release(file: Pick<StoredFileRow, 'id' | 'blobKey'>): Promise<boolean>;
}

export interface BlobHoldersDeps {
  blobs: BlobStore;
  locks: KeyedLock;
  table: StoredFilesTable;
  projection: StoredFilesProjection;
}

export function createBlobHolders({ blobs, locks, table, projection }: BlobHoldersDeps): BlobHolders {
  return {
    hold(blobKey, record) {
      return locks.run(blobKey, async () => {
        try {
          await blobs.stat(blobKey);
        } catch (err) {
          if (!(err instanceof BlobNotFound)) throw err;
          throw problems.unavailable('the content was removed while it was stored; upload it again');
        }
        return record();
      });
    },

    release(file) {
      return locks.run(file.blobKey, async () => {
        if (!(await projection.caughtUp(CATCH_UP_MS))) return false;
        if (!table.hasLiveFile(file.blobKey)) await blobs.delete(file.blobKey);
        table.markReleased(file.id);
        return true;
      });
    },
  };
}
