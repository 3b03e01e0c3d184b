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

/** An event's data and metadata as the JSON text they are stored as. */
export interface EncodedEvent {
  data: string;
  metadata: string;
}

/** Checks an append and returns each event's JSON, serialised once for the size check and the write. */
export function checkAppend(
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedRevision,
): EncodedEvent[] {
  checkStreamId(streamId);
  if (events.length === 0) throw new RangeError(`append to ${streamId}: no events`);
  for (const event of events) {
    if (typeof event.id !== 'string' || !UUID.test(event.id))
      throw new RangeError(`append to ${streamId}: event id ${String(event.id)} is not a UUID`);
  }
  const encoded = events.map(encodeEvent);
  const bytes = appendBytes(events, encoded);
  if (bytes > MAX_APPEND_BYTES) throw new AppendTooLarge(streamId, MAX_APPEND_BYTES, bytes);
  if (expected !== 'any' && !(Number.isSafeInteger(expected) && expected >= 0)) {
    throw new RangeError(`append to ${streamId}: expected revision must be 'any' or an integer >= 0`);
  }
  return encoded;
}

function encodeEvent(event: NewEvent): EncodedEvent {
  return { data: JSON.stringify(event.data), metadata: JSON.stringify(event.metadata) };
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
function appendBytes(events: readonly NewEvent[], encoded: readonly EncodedEvent[]): number {
  let bytes = 0;
  events.forEach((event, i) => {
    const { data, metadata } = encoded[i]!;
    bytes += Buffer.byteLength(event.id) + Buffer.byteLength(event.type);
    bytes += Buffer.byteLength(data) + Buffer.byteLength(metadata);
  });
  return bytes;
}

function checkStreamId(streamId: string): void {
  if (typeof streamId !== 'string' || streamId.length === 0)
    throw new RangeError('stream id must not be empty');
}
