/** Test files name their level: `.unit.`/`.int.` beside the code, a plain name under `tests/<level>/`. */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;

/** Why `file` breaks the naming rule, or undefined when it keeps it. */
function misnamed(file: string): string | undefined {
  const level = /\.(unit|int)\.test\.ts$/.test(file);
  if (/^(packages|services)\/[^/]+\/src\//.test(file))
    return level ? undefined : 'beside the code a test is *.unit.test.ts or *.int.test.ts';
  if (/^tests\/[^/]+\//.test(file))
    return /\.[a-z0-9]+\.test\.ts$/.test(file)
      ? 'under tests/ the folder is the level: *.test.ts'
      : undefined;
  return 'a test lives beside the code (packages/*/src, services/*/src) or under tests/<level>/';
}

describe('test file names', () => {
  const cases: Array<[file: string, kept: boolean]> = [
    ['packages/kit/src/ids.unit.test.ts', true],
    ['services/document/src/views/planner.int.test.ts', true],
    ['packages/bus/src/kafka.test.ts', false],
    ['services/workflow/src/api.e2e.test.ts', false],
    ['tests/api/documents.test.ts', true],
    ['tests/api/documents.int.test.ts', false],
    ['scripts/x.test.ts', false],
  ];
  for (const [file, kept] of cases)
    it(`${file}: ${kept ? 'kept' : 'refused'}`, () => assert.equal(misnamed(file) === undefined, kept));

  it('every test file of the workspace keeps the rule', () => {
    const files = ['packages', 'services', 'tests'].flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((path) => path.endsWith('.test.ts') && !path.includes('node_modules'))
        .map((path) => join(dir, path)),
    );
    assert.ok(files.length > 50, `found only ${files.length} test files`);
    assert.deepEqual(
      files.map((f) => [f, misnamed(f)]).filter(([, why]) => why),
      [],
    );
  });
});
