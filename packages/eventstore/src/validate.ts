/** Argument checks shared by the adapters, so both reject the same misuse the same way. */
import type { ExpectedRevision, NewEvent, ReadStreamOptions } from './port';

export function checkAppend(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): void {
  checkStreamId(streamId);
  if (events.length === 0) throw new RangeError(`append to ${streamId}: no events`);
  if (expected !== 'any' && !(Number.isSafeInteger(expected) && expected >= 0)) {
    throw new RangeError(`append to ${streamId}: expected revision must be 'any' or an integer >= 0`);
  }
}

/** Returns the 1-based first revision and the maximum count (Infinity when unbounded). */
export function checkRead(
  streamId: string,
  options: ReadStreamOptions,
): { fromRevision: number; maxCount: number } {
  checkStreamId(streamId);
  const { fromRevision = 1, maxCount = Number.POSITIVE_INFINITY } = options;
  if (!(Number.isSafeInteger(fromRevision) && fromRevision >= 1)) {
    throw new RangeError(`read of ${streamId}: fromRevision must be an integer >= 1`);
  }
  if (!(maxCount === Number.POSITIVE_INFINITY || (Number.isSafeInteger(maxCount) && maxCount >= 0))) {
    throw new RangeError(`read of ${streamId}: maxCount must be an integer >= 0`);
  }
  return { fromRevision, maxCount };
}

function checkStreamId(streamId: string): void {
  if (typeof streamId !== 'string' || streamId.length === 0)
    throw new RangeError('stream id must not be empty');
}
