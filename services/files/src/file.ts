/** A stored file: the `file-<id>` stream holds its FileStored event, and FileDiscarded once it is given up. */
import { FileEvents } from '@docflow/contracts';
import type { Aggregate } from '@docflow/kit/eventsourcing';
import type { z } from 'zod';

export type FileStored = z.infer<typeof FileEvents.FileStored>;
export type FileDiscarded = z.infer<typeof FileEvents.FileDiscarded>;
export type DiscardReason = FileDiscarded['reason'];
export type FileEvent =
  | { type: 'FileStored'; data: FileStored }
  | { type: 'FileDiscarded'; data: FileDiscarded };

/** A stored file as a document holds it: its id and its content's hash. */
export interface AttachedFile {
  id: string;
  sha256: string;
}

export interface FileState {
  stored?: FileStored;
  /** True once the file was discarded: it is no longer served. */
  discarded: boolean;
}

export const fileAggregate: Aggregate<FileState, FileEvent> = {
  initial: { discarded: false },
  evolve(state, event) {
    switch (event.type) {
      case 'FileStored':
        return { ...state, stored: event.data };
      case 'FileDiscarded':
        return { ...state, discarded: true };
    }
  },
  parse(type, data) {
    switch (type) {
      case 'FileStored':
        return { type, data: FileEvents.FileStored.parse(data) };
      case 'FileDiscarded':
        return { type, data: FileEvents.FileDiscarded.parse(data) };
      default:
        throw new Error(`unknown file event type ${type}`);
    }
  },
};
