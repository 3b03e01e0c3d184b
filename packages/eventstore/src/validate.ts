/** Argument checks shared by the adapters, so both reject the same misuse the same way. */
import {
  AppendTooLarge,
  type ExpectedRevision,
  MAX_APPEND_BYTES,
  type NewEvent,
  type ReadStreamOptions,
} from './port';

/** Any RFC 9562 UUID in its canonical text form (the KurrentDB client crashes on anything else). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function checkAppend(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): void {
  checkStreamId(streamId);
  if (events.length === 0) throw new RangeError(`append to ${streamId}: no events`);
  for (const event of events) {
    if (typeof event.id !== 'string' || !UUID.test(event.id))
      throw new RangeError(`append to ${streamId}: event id ${String(event.id)} is not a UUID`);
  }
  const bytes = appendBytes(events);
  if (bytes > MAX_APPEND_BYTES) throw new AppendTooLarge(streamId, MAX_APPEND_BYTES, bytes);
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

/** The size MAX_APPEND_BYTES limits: UTF-8 bytes of ids, types, JSON data and JSON metadata. */
export function appendBytes(events: readonly NewEvent[]): number {
  let bytes = 0;
  for (const event of events) {
    bytes += Buffer.byteLength(event.id) + Buffer.byteLength(event.type);
    bytes +=
      Buffer.byteLength(JSON.stringify(event.data)) + Buffer.byteLength(JSON.stringify(event.metadata));
  }
  return bytes;
}

function checkStreamId(streamId: string): void {
  if (typeof streamId !== 'string' || streamId.length === 0)
    throw new RangeError('stream id must not be empty');
}
