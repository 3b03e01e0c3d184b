/** The two-level root: kept up to date bucket by bucket, it equals the root recomputed from scratch. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { bucketDigest, bucketedRoot, bucketOf, ROOT_BUCKETS, rootOfBuckets } from './bucket-root';
import { merkleOfNodes, merkleRoot, type StreamHead } from './merkle';

/** A small deterministic generator (mulberry32), so a failure can be replayed from its seed. */
function random(seed: number) {
  let a = seed;
  return (n: number) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const hex = (text: string) => createHash('sha256').update(text).digest('hex');

describe('bucket root', () => {
  it('a bucket is the first three hex digits of SHA-256(streamId)', () => {
    assert.equal(bucketOf('docForm-1'), Number.parseInt(hex('docForm-1').slice(0, 3), 16));
    assert.ok(bucketOf('docForm-1') < ROOT_BUCKETS);
  });

  it('of no head: the Merkle root of 4,096 empty buckets', () => {
    const empty = merkleRoot([]);
    assert.equal(bucketedRoot([]), merkleOfNodes(Array.from({ length: ROOT_BUCKETS }, () => empty)));
  });

  for (const seed of [1, 2, 3]) {
    it(`updated bucket by bucket equals the root from scratch after random updates (seed ${seed})`, () => {
      const next = random(seed);
      const heads = new Map<string, StreamHead>();
      const digests = Array.from({ length: ROOT_BUCKETS }, () => bucketDigest([]));
      for (let round = 0; round < 20; round++) {
        const dirty = new Set<number>();
        const changes = 1 + next(300);
        for (let i = 0; i < changes; i++) {
          const streamId = `docForm-${next(2_000)}`;
          const revision = (heads.get(streamId)?.revision ?? 0) + 1;
          heads.set(streamId, { streamId, revision, hash: hex(`${streamId}/${revision}`) });
          dirty.add(bucketOf(streamId));
        }
        for (const bucket of dirty)
          digests[bucket] = bucketDigest([...heads.values()].filter((h) => bucketOf(h.streamId) === bucket));
        assert.equal(rootOfBuckets(digests), bucketedRoot(heads.values()), `round ${round}`);
      }
    });
  }

  it('any change of a head changes the root', () => {
    const heads = [1, 2, 3].map((n) => ({ streamId: `docForm-${n}`, revision: n, hash: hex(String(n)) }));
    const root = bucketedRoot(heads);
    assert.notEqual(bucketedRoot(heads.slice(0, 2)), root);
    assert.notEqual(bucketedRoot([heads[0]!, heads[1]!, { ...heads[2]!, revision: 4 }]), root);
    assert.equal(bucketedRoot([...heads].reverse()), root);
  });
});
