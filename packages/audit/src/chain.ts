/**
 * The hash chain of a document stream. Each event's hash is
 * `SHA-256(prevHash ‖ JCS(entry))`, hex: `prevHash` is the previous event's hash as 64 lowercase hex
 * characters (GENESIS_HASH before the first event), `‖` is concatenation of UTF-8 bytes, and JCS is
 * the RFC 8785 JSON Canonicalization Scheme of the object `{ type, revision, data, actor, runAs, time,
 * correlationId, causationId }` (an absent actor, run-as user or id is `null`). Pure.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** The `prevHash` of a stream's first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** What the hash of an event covers. */
export interface ChainEvent {
  revision: number;
  type: string;
  data: Record<string, unknown>;
  /** ISO 8601 UTC time the event was decided (its metadata's timestamp). */
  time: string;
  actor?: string;
  runAs?: string;
  correlationId?: string;
  causationId?: string;
}

/** A recorded event with the chain fields its metadata carries. */
export interface ChainedEvent extends ChainEvent {
  hash?: string;
  prevHash?: string;
}

export interface ChainVerdict {
  valid: boolean;
  /** How many events were read. */
  revisions: number;
  /** The hash of the last event read, null when none was. */
  head: string | null;
  firstBadRevision: number | null;
  reason: string | null;
}

/** The RFC 8785 canonical JSON an event's hash covers. */
export function canonicalEvent(event: ChainEvent): string {
  return canonicalize({
    type: event.type,
    revision: event.revision,
    data: event.data,
    actor: event.actor ?? null,
    runAs: event.runAs ?? null,
    time: event.time,
    correlationId: event.correlationId ?? null,
    causationId: event.causationId ?? null,
  }) as string;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export function eventHash(prevHash: string, event: ChainEvent): string {
  return sha256Hex(prevHash + canonicalEvent(event));
}

/**
 * Checks a stream read oldest first: revisions 1, 2, 3… without a gap, each `prevHash` the hash before
 * it, each `hash` recomputed from the event. The first event that fails is named.
 */
export function verifyChain(events: readonly ChainedEvent[]): ChainVerdict {
  let prev = GENESIS_HASH;
  let expected = 1;
  const bad = (revision: number, reason: string): ChainVerdict => ({
    valid: false,
    revisions: events.length,
    head: events.at(-1)?.hash ?? null,
    firstBadRevision: revision,
    reason,
  });
  for (const event of events) {
    if (event.revision !== expected)
      return event.revision > expected
        ? bad(expected, `revision ${expected} is missing (the next event read is revision ${event.revision})`)
        : bad(event.revision, `revision ${event.revision} is out of order (expected ${expected})`);
    if (!event.hash || !event.prevHash) return bad(expected, 'the event carries no hash');
    if (event.prevHash !== prev)
      return bad(expected, `its prevHash is not the hash of revision ${expected - 1}`);
    if (eventHash(prev, event) !== event.hash)
      return bad(expected, 'its content does not match its hash (the event was changed)');
    prev = event.hash;
    expected++;
  }
  return {
    valid: true,
    revisions: events.length,
    head: events.at(-1)?.hash ?? null,
    firstBadRevision: null,
    reason: null,
  };
}

/** The hashing above in one line, as an export bundle states it for its reader. */
export const HASHING =
  'hash = hex(SHA-256(prevHash || JCS({type, revision, data, actor, runAs, time, correlationId, ' +
  'causationId}))), JCS = RFC 8785 JSON Canonicalization Scheme, absent fields null, prevHash of ' +
  'revision 1 = 64 zeros, || = concatenation of UTF-8 bytes';
