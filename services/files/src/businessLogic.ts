/** The files service's decisions on a stored file: pure functions of its state. */
import { rejections } from '@docflow/contracts';
import type { DiscardReason, FileEvent, FileState } from './file';

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
