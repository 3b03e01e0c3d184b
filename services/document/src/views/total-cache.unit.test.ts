/** The kept totals and matches: dropped by the writes that touch each condition, matches bounded. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTotalCache } from './total-cache';

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('total cache', () => {
  it('drops a total and its matches once every condition has a touched key', () => {
    const cache = createTotalCache();
    cache.set('two tags', 3, [['t:t0'], ['t:t1']]);
    cache.setMatches('two tags', ['a', 'b', 'c']);
    cache.touched(new Set(['t:t0', 'f:memo']));
    assert.equal(cache.get('two tags'), 3);
    assert.deepEqual(cache.matches('two tags'), ['a', 'b', 'c']);
    cache.touched(new Set(['t:t0', 't:t1']));
    assert.equal(cache.get('two tags'), undefined);
    assert.equal(cache.matches('two tags'), undefined);
    // Matches without a kept total are not kept; a listing without keyed conditions keeps nothing.
    cache.setMatches('two tags', ['a']);
    assert.equal(cache.matches('two tags'), undefined);
    cache.set('a status', 5, []);
    assert.equal(cache.get('a status'), undefined);
  });

  it('keeps at most so many ids of matches: the oldest lists go first, their totals stay', () => {
    const cache = createTotalCache(10);
    for (const name of ['x', 'y', 'z']) cache.set(name, 4, [[`t:${name}`]]);
    cache.setMatches('x', ids('x', 4));
    cache.setMatches('y', ids('y', 4));
    cache.setMatches('z', ids('z', 4));
    assert.equal(cache.matches('x'), undefined);
    assert.deepEqual(cache.matches('y'), ids('y', 4));
    assert.deepEqual(cache.matches('z'), ids('z', 4));
    assert.equal(cache.get('x'), 4);
    // A list longer than the bound is not kept; a dropped total gives its ids back to the bound.
    cache.set('w', 11, [['t:w']]);
    cache.setMatches('w', ids('w', 11));
    assert.equal(cache.matches('w'), undefined);
    cache.touched(new Set(['t:y']));
    cache.setMatches('x', ids('x', 6));
    assert.deepEqual(cache.matches('x'), ids('x', 6));
    assert.deepEqual(cache.matches('z'), ids('z', 4));
    cache.clear();
    assert.equal(cache.get('z'), undefined);
  });
});
