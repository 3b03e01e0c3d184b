/** The anchored heads: complete checkpoints folded in order; one cut short is passed over. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { latestCheckpoint } from './latest-checkpoint';

const head = (n: number, revision = 1) => ({ streamId: `docForm-${n}`, revision, hash: 'a'.repeat(64) });
type Head = ReturnType<typeof head>;

/** The events of one checkpoint, one per part; its id. */
function checkpoint(previous: string | null, root: string, parts: Head[][], streams: number, at: string) {
  const checkpointId = randomUUID();
  const events = parts.map((heads, i) => ({
    data: {
      checkpointId,
      previousCheckpointId: previous,
      part: i + 1,
      parts: parts.length,
      root,
      streams,
      heads,
    },
    metadata: { timestamp: at },
  }));
  return { checkpointId, events };
}

describe('latestCheckpoint', () => {
  it('folds every checkpoint: the last head of each stream wins, the newest root and count', () => {
    const first = checkpoint(null, '1'.repeat(64), [[head(1), head(2)], [head(3)]], 3, 't1');
    const second = checkpoint(first.checkpointId, '2'.repeat(64), [[head(2, 4), head(4)]], 4, 't2');
    const latest = latestCheckpoint([...first.events, ...second.events])!;
    assert.equal(latest.checkpointId, second.checkpointId);
    assert.equal(latest.root, '2'.repeat(64));
    assert.deepEqual([...latest.heads.values()], [head(1), head(2, 4), head(3), head(4)]);
    assert.equal(latest.streams, 4);
    assert.equal(latest.at, 't2');
    assert.equal(latest.linked, true);
  });

  it('passes over a checkpoint whose last parts are missing; the next one folds on', () => {
    const first = checkpoint(null, '1'.repeat(64), [[head(1)]], 1, 't1');
    const cut = checkpoint(first.checkpointId, '2'.repeat(64), [[head(1, 2)], [head(2)]], 2, 't2');
    const cutOnly = latestCheckpoint([...first.events, cut.events[0]!])!;
    assert.equal(cutOnly.root, '1'.repeat(64));
    assert.deepEqual([...cutOnly.heads.values()], [head(1)]);

    const again = checkpoint(first.checkpointId, '3'.repeat(64), [[head(1, 2), head(2)]], 2, 't3');
    const latest = latestCheckpoint([...first.events, cut.events[0]!, ...again.events])!;
    assert.equal(latest.root, '3'.repeat(64));
    assert.deepEqual([...latest.heads.values()], [head(1, 2), head(2)]);
    assert.equal(latest.linked, true);
  });

  it('a checkpoint removed from between: not linked', () => {
    const first = checkpoint(null, '1'.repeat(64), [[head(1)]], 1, 't1');
    const second = checkpoint(first.checkpointId, '2'.repeat(64), [[head(2)]], 2, 't2');
    const third = checkpoint(second.checkpointId, '3'.repeat(64), [[head(3)]], 3, 't3');
    assert.equal(latestCheckpoint([...first.events, ...third.events])!.linked, false);
  });

  it('none: undefined', () => {
    assert.equal(latestCheckpoint([]), undefined);
  });
});
