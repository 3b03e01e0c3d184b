/**
 * The files of one create, from their upload to the append of DocumentCreated: what was stored and
 * whether it was claimed for the new document, so that a create refused at any point keeps no
 * attachment and no file (docs/decisions.md, "Creates are all-or-nothing for files").
 */
import type { StoredFile } from '@docflow/contracts';
import type { Logger } from '@docflow/kit';
import { toProblemError } from '@docflow/kit/http';
import { claimFiles, discardFiles, type FilesCall, releaseClaim, storeFile } from '../../calls/files-calls';
import type { IncomingFile } from '../multipart';

export interface CreateFiles {
  /** Streams one upload to the files service (`allowDupl=false` may refuse it early: 409). */
  store(file: IncomingFile): Promise<StoredFile>;
  /** Claims the stored files for the new document: the last step before the append. */
  claim(files: readonly StoredFile[]): Promise<void>;
  /**
   * For a create whose document was not written: releases the claim (if one was asked for) and
   * discards every stored file. A release that fails leaves the files attached (kept, logged); a
   * discard that fails leaves the file to the files service's orphan sweeper.
   */
  giveUp(): Promise<void>;
}

/**
 * @example
 * const files = createFiles(call, docId, query.allowDupl, log);
 * try { ...; await files.claim(parts.files); await append(); }
 * catch (err) { if (!appending || (await appendWroteNothing(err, exists))) await files.giveUp(); throw err; }
 */
export function createFiles(call: FilesCall, docId: string, allowDupl: boolean, log: Logger): CreateFiles {
  const stored: StoredFile[] = [];
  // Set before the call: a claim whose answer was lost may still have been recorded.
  let claimAsked = false;
  return {
    async store(file) {
      const storedFile = await storeFile(call, file, allowDupl);
      stored.push(storedFile);
      return storedFile;
    },
    async claim(files) {
      claimAsked = files.length > 0;
      await claimFiles(call, docId, files, allowDupl);
    },
    async giveUp() {
      if (claimAsked) {
        try {
          await releaseClaim(call, docId);
        } catch (err) {
          log.warn({ err, docId }, 'the claim of a refused create was not released; its files stay attached');
          return;
        }
      }
      for (const fileId of await discardFiles(call, stored))
        log.warn({ fileId }, 'a file of a refused create was not discarded; the sweeper will');
    },
  };
}

/**
 * True when a failed append of DocumentCreated certainly wrote nothing: it was refused (a 4xx: the
 * decision, the size bound, a concurrent writer) and the stream holds no document (`exists`, read
 * after the failure, says no). A 5xx (the store did not answer) leaves the outcome unknown, and so
 * does a failed read: the document may exist, so its files must stay.
 *
 * @example
 * if (await appendWroteNothing(err, async () => (await load(id)).state.exists)) await files.giveUp();
 */
export async function appendWroteNothing(err: unknown, exists: () => Promise<boolean>): Promise<boolean> {
  if (toProblemError(err).status >= 500) return false;
  return exists().then(
    (found) => !found,
    () => false,
  );
}
