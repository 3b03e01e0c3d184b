/**
 * The architecture test: no import cycle between the files of one service or package.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cyclesOf, unitDirs, unitGraph } from './module-graph';

const root = new URL('../..', import.meta.url).pathname;

const key = (files: readonly string[]) => files.join(' ↔ ');

describe('finding cycles', () => {
  const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
  it('finds a two-file cycle, a longer one and a self-import, not a chain or a diamond', () => {
    const cycles = cyclesOf(
      graph({
        a: ['b'],
        b: ['a'],
        c: ['d'],
        d: ['e'],
        e: ['c', 'f'],
        f: [],
        g: ['g'],
        h: ['i', 'j'],
        i: ['k'],
        j: ['k'],
        k: [],
      }),
    );
    assert.deepEqual(cycles.map(key).sort(), ['a ↔ b', 'c ↔ d ↔ e', 'g']);
  });
  it('reads the imports of .tsx files, as the console has them', () => {
    const console = unitGraph(root, `${root}packages/console`);
    assert.ok(
      console.get('packages/console/src/web/document.tsx')?.includes('packages/console/src/web/ui.tsx'),
    );
  });
});

describe('the workspace', () => {
  it('has no import cycle between the files of one service or package', () => {
    const found = unitDirs(root).flatMap((dir) => cyclesOf(unitGraph(root, dir)).map(key));
    assert.deepEqual(found, []);
  });
});
