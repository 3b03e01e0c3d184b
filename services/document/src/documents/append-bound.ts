/**
 * The store's bound on one append (MAX_APPEND_BYTES), checked on decided events before anything is
 * done for them elsewhere: a create checks it before it claims its files, so a create the store
 * would refuse claims nothing. The store counts each event's id, type, JSON data and JSON metadata;
 * the metadata is not known yet (the seal and the trace context are added at the append), so it is
 * counted as METADATA_ALLOWANCE, above what its bounded parts can take (two ids of at most 128
 * characters, two `usr-` ids, a timestamp, two hashes, a traceparent).
 */
import { MAX_APPEND_BYTES } from '@docflow/eventstore';
import { problems } from '@docflow/kit/http';

export const METADATA_ALLOWANCE = 4 * 1024;
/** A UUID in its text form, as every event id is. */
const EVENT_ID_BYTES = 36;

/** Throws 413 (as the store's own refusal answers) when `events` could not be appended in one append. */
export function requireAppendable(events: readonly { type: string; data: unknown }[]): void {
  let bytes = 0;
  for (const event of events)
    bytes +=
      EVENT_ID_BYTES +
      Buffer.byteLength(event.type) +
      Buffer.byteLength(JSON.stringify(event.data)) +
      METADATA_ALLOWANCE;
  if (bytes > MAX_APPEND_BYTES) throw problems.tooLarge(`the change exceeds ${MAX_APPEND_BYTES} bytes`);
}
