/** The files service's decisions on a stored file and on a document's claim of files: pure functions of state. */
import { rejections } from '@docflow/contracts';
import type { AttachedFile, DiscardReason, FileEvent, FileState, FileStored } from './file';

/** Records an uploaded file under its new id (never taken: a taken one is a fault, not a rejection). */
export function decideStore(file: FileStored, state: FileState): FileEvent[] {
  if (state.stored) throw new Error(`the new file id ${file.id} is taken`);
  return [{ type: 'FileStored', data: file }];
}

export interface DiscardFile {
  id: string;
  reason: DiscardReason;
  /** Whether a document holds the file (the attachment index says so). */
  attached: boolean;
}

/**
 * Discards a file no document holds. Discarding it again decides nothing (idempotent); an unknown
 * file is not found, and a file a document holds is never discarded (a conflict).
 */
export function decideDiscard(command: DiscardFile, state: FileState): FileEvent[] {
  if (!state.stored) throw rejections.notFound('no such file');
  if (state.discarded) return [];
  if (command.attached)
    throw rejections.conflict('the file is attached to a document; attached files are never discarded');
  return [{ type: 'FileDiscarded', data: { id: command.id, reason: command.reason } }];
}

/** The answer to `allowDupl=false` for content a live document holds; it names no document. */
export const DUPLICATE_CONTENT = 'a file with the same content is already attached to a document';

/** A create's claim of its files for its new document: the duplicate check and the attach, as one. */
export interface ClaimFiles {
  files: readonly AttachedFile[];
  allowDupl: boolean;
}

export interface ClaimState {
  /** The hashes among the claimed files that a live document other than the claimant holds. */
  heldElsewhere: ReadonlySet<string>;
}

/**
 * The files to record as the claimant's: all of them, unless `allowDupl=false` and a live document
 * other than the claimant holds the content of one (a conflict; nothing is recorded). Claiming again
 * what the claimant holds, or one content twice in one claim, is fine.
 */
export function decideClaim(command: ClaimFiles, state: ClaimState): AttachedFile[] {
  if (!command.allowDupl && command.files.some((f) => state.heldElsewhere.has(f.sha256)))
    throw rejections.conflict(DUPLICATE_CONTENT);
  return [...command.files];
}

export interface ReleaseState {
  /** Whether the document's DocumentCreated arrived: the document exists. */
  created: boolean;
}

/**
 * Releases the claim of a document that was never created (its create was refused), so its files
 * can be discarded. A document that exists keeps its files: releasing them is a conflict.
 */
export function decideRelease(state: ReleaseState): void {
  if (state.created) throw rejections.conflict('the document exists; the files it holds are never released');
}
