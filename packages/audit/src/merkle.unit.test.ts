/** The checkpoint's Merkle root: order-independent input, sensitive to every head. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { leafHash, merkleRoot } from './merkle';

const head = (n: number) => ({
  streamId: `docForm-${n}`,
  revision: n,
  hash: String(n).repeat(64).slice(0, 64),
});
const node = (l: string, r: string) =>
  createHash('sha256')
    .update('\x01')
    .update(l + r)
    .digest('hex');

describe('merkleRoot', () => {
  it('pairs the leaves in stream order and moves an odd one up', () => {
    const [a, b, c] = [head(1), head(2), head(3)];
    const expected = node(node(leafHash(a), leafHash(b)), leafHash(c));
    assert.equal(merkleRoot([c, a, b]), expected);
  });

  it('changes when a stream is removed or its head changes', () => {
    const heads = [head(1), head(2), head(3)];
    const root = merkleRoot(heads);
    assert.notEqual(merkleRoot(heads.slice(0, 2)), root);
    assert.notEqual(merkleRoot([head(1), head(2), { ...head(3), revision: 2 }]), root);
  });

  it('of no stream is SHA-256 of nothing', () => {
    assert.equal(merkleRoot([]), createHash('sha256').digest('hex'));
  });
});
