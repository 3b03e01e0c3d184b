/**
 * The architecture test: an internal route's path is written once, in its route object in
 * packages/contracts; every other file reaches it through that object (kit's internal client, a
 * service's `serveInternal`, `pathOf`). Tests (`*.test.ts`) are exempt: they pin the wire path itself.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;
const LITERAL = '/internal/';

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(name) && !name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** The files (outside packages/contracts) whose text has an internal path in it. */
function filesNamingInternalPaths(): string[] {
  return ['services', 'packages']
    .flatMap((kind) => sources(join(root, kind)))
    .map((path) => relative(root, path).split(sep).join('/'))
    .filter((file) => !file.startsWith('packages/contracts/'))
    .filter((file) => readFileSync(join(root, file), 'utf8').includes(LITERAL));
}

describe('internal paths', () => {
  it('are named only by their route objects in packages/contracts', () => {
    assert.deepEqual(filesNamingInternalPaths(), []);
  });
});
