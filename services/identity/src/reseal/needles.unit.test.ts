import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { NeedleSet } from './needles';

describe('finding many byte strings at once', () => {
  it('finds exactly what looking for each string on its own finds', () => {
    // A small alphabet, so that strings occur by chance and hashes of near misses are compared.
    const text = Buffer.from(Array.from(randomBytes(50_000), (b) => 97 + (b % 4)));
    const needles = Array.from({ length: 400 }, (_, i) => {
      const length = 4 + (i % 9);
      const bytes =
        i % 2 === 0
          ? Buffer.from(text.subarray(i * 100, i * 100 + length)) // present
          : Buffer.from(Array.from(randomBytes(length), (b) => 97 + (b % 5))); // perhaps
      return { bytes, label: `n${i}` };
    });
    const found = new Set<string>();
    new NeedleSet(needles).labelsIn(text, found);
    const expected = new Set(needles.filter((n) => text.includes(n.bytes)).map((n) => n.label));
    assert.deepEqual([...found].sort(), [...expected].sort());
    assert.ok(expected.size >= 200);
  });

  it('finds a string at the very start and at the very end; nothing in a shorter buffer; the longest length', () => {
    const set = new NeedleSet([
      { bytes: Buffer.from('head'), label: 'head' },
      { bytes: Buffer.from('tail!'), label: 'tail' },
    ]);
    const found = new Set<string>();
    set.labelsIn(Buffer.from('head and tail!'), found);
    assert.deepEqual([...found].sort(), ['head', 'tail']);
    const none = new Set<string>();
    set.labelsIn(Buffer.from('he'), none);
    assert.equal(none.size, 0);
    assert.equal(set.longest, 5);
  });
});
