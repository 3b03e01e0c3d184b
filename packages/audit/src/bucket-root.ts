/**
 * The root of an audit checkpoint, built in two levels so that it is cheap to keep up to date over
 * a million streams: every stream falls in one of ROOT_BUCKETS buckets — the first three hex digits of
 * SHA-256(streamId), as a number 0–4095 — and a bucket's digest is `merkleRoot` (merkle.ts) of the
 * heads in it (SHA-256 of nothing when it holds none); the root is `merkleOfNodes` over the 4,096
 * bucket digests in bucket order. A change to one head only changes its bucket's digest. Pure.
 */
import { createHash } from 'node:crypto';
import { merkleOfNodes, merkleRoot, type StreamHead } from './merkle';

export const ROOT_BUCKETS = 4_096;

export const bucketOf = (streamId: string): number =>
  Number.parseInt(createHash('sha256').update(streamId, 'utf8').digest('hex').slice(0, 3), 16);

/** A bucket's digest from its heads (any order). */
export const bucketDigest = (heads: readonly StreamHead[]): string => merkleRoot(heads);

/** The root from the ROOT_BUCKETS bucket digests, bucket 0 first. */
export function rootOfBuckets(digests: readonly string[]): string {
  if (digests.length !== ROOT_BUCKETS) throw new RangeError(`${ROOT_BUCKETS} bucket digests expected`);
  return merkleOfNodes(digests);
}

/** The root from every head at once (what a verifier recomputes). */
export function bucketedRoot(heads: Iterable<StreamHead>): string {
  const buckets: StreamHead[][] = Array.from({ length: ROOT_BUCKETS }, () => []);
  for (const head of heads) buckets[bucketOf(head.streamId)]!.push(head);
  return rootOfBuckets(buckets.map(bucketDigest));
}
