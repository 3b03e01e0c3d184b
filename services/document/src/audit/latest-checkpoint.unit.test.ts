/** The newest complete checkpoint: its parts put together; one cut short is passed over. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { latestCheckpoint } from './latest-checkpoint';

const head = (n: number) => ({ streamId: `docForm-${n}`, revision: 1, hash: 'a'.repeat(64) });

function checkpoint(root: string, heads: ReturnType<typeof head>[][], at: string) {
  const checkpointId = randomUUID();
  return heads.map((part, i) => ({
    data: { checkpointId, part: i + 1, parts: heads.length, root, streams: heads.flat().length, heads: part },
    metadata: { timestamp: at },
  }));
}

describe('latestCheckpoint', () => {
  it('puts the parts of the newest checkpoint together', () => {
    const events = [
      ...checkpoint('1'.repeat(64), [[head(1)]], 't1'),
      ...checkpoint('2'.repeat(64), [[head(1), head(2)], [head(3)]], 't2'),
    ];
    const latest = latestCheckpoint(events)!;
    assert.equal(latest.root, '2'.repeat(64));
    assert.deepEqual(latest.heads, [head(1), head(2), head(3)]);
    assert.equal(latest.streams, 3);
    assert.equal(latest.at, 't2');
  });

  it('passes over a checkpoint whose last parts are missing', () => {
    const cut = checkpoint('2'.repeat(64), [[head(1)], [head(2)]], 't2').slice(0, 1);
    const latest = latestCheckpoint([...checkpoint('1'.repeat(64), [[head(1)]], 't1'), ...cut])!;
    assert.equal(latest.root, '1'.repeat(64));
  });

  it('none: undefined', () => {
    assert.equal(latestCheckpoint([]), undefined);
  });
});
