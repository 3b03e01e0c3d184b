/** A stored file: the `file-<id>` stream holds one FileStored event. */
import { FileEvents } from '@docflow/contracts';
import type { Aggregate } from '@docflow/kit';
import type { z } from 'zod';

export type FileStored = z.infer<typeof FileEvents.FileStored>;
export type FileEvent = { type: 'FileStored'; data: FileStored };

export interface FileState {
  stored?: FileStored;
}

export const fileAggregate: Aggregate<FileState, FileEvent> = {
  initial: {},
  evolve: (_state, event) => ({ stored: event.data }),
  parse(type, data) {
    if (type !== 'FileStored') throw new Error(`unknown file event type ${type}`);
    return { type, data: FileEvents.FileStored.parse(data) };
  },
};
