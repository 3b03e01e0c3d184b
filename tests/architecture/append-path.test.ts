/**
 * One append path: outside tests, only kit's command executor (aggregate.ts) and the event store's
 * adapters and wrappers call an event store's `append`; every service appends through
 * `executeCommand` (or `recordEvents`), which holds the retry policy, the expected revision and the
 * idempotency by event id. An append is recognised by its receiver's name (`store`, `eventStore`,
 * `deps.store`, a `sqlite` or `esdb` adapter), as the workspace names its event stores.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;

const APPEND = /\b\w*(store|sqlite|esdb)\w*\s*(\?\.|\.)\s*append\s*\(/i;

/** Where an append may be called: the executor, the event store wrappers, the adapters. */
const ALLOWED = [
  /^packages\/kit\/src\/aggregate\.ts$/,
  /^packages\/kit\/src\/event-store-[\w-]+\.ts$/,
  /^packages\/eventstore\/src\//,
];

/** The 1-based lines of `source` that append to an event store, comments left out. */
function appendLines(source: string): number[] {
  return source
    .split('\n')
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => !line.startsWith('//') && !line.startsWith('*') && APPEND.test(line))
    .map(({ n }) => n);
}

/** `file:line` of every append outside the allowed files, among the sources under `root`. */
function appendsOutsideExecutor(root: string): string[] {
  const units = ['packages', 'services'].flatMap((kind) =>
    readdirSync(join(root, kind)).map((name) => `${kind}/${name}/src`),
  );
  return units.flatMap((src) =>
    (existsSync(join(root, src)) ? readdirSync(join(root, src), { recursive: true, encoding: 'utf8' }) : [])
      .map((path) => `${src}/${path}`)
      .filter(
        (file) =>
          /\.tsx?$/.test(file) &&
          !file.endsWith('.test.ts') &&
          !ALLOWED.some((allowed) => allowed.test(file)),
      )
      .flatMap((file) => appendLines(readFileSync(join(root, file), 'utf8')).map((n) => `${file}:${n}`)),
  );
}

describe('the append rule', () => {
  const cases: Array<[source: string, append: boolean]> = [
    ['await store.append(stream, [event], 0);', true],
    ['deps.store.append(stream, events, revision)', true],
    ['return eventStore.append(id, events, "any");', true],
    ['sqlite?.append(id, events, 0)', true],
    ['form.append("files", file, file.name);', false],
    ['document.body.append(link);', false],
    ['// store.append(stream, [event], 0) was the old way', false],
    [' * await store.append(stream, [event], 0);', false],
  ];
  for (const [source, append] of cases)
    it(`${source.trim()}: ${append ? 'an append' : 'not one'}`, () =>
      assert.equal(appendLines(source).length > 0, append));
});

describe('the workspace', () => {
  it('appends to an event store only through the executor (kit/aggregate.ts) and the store wrappers', () => {
    assert.deepEqual(appendsOutsideExecutor(root), []);
  });
});
