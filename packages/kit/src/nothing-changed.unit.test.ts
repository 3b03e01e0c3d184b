/** The contract's 422 ("executed but no data was updated") has one maker: problems.nothingChanged. */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { rejections } from '@docflow/contracts';
import { NOTHING_CHANGED_422, problems, toProblemError } from './problem';

const ROOT = join(import.meta.dirname, '../../..');
/** A problem built with the status written out rather than through the factory. */
const HAND_MADE_422 = /ProblemError\(\s*422\b/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .filter((file) => !file.includes('node_modules'));
}

describe("the contract's 422", () => {
  it('is made by problems.nothingChanged, and a notApplicable rejection answers it', () => {
    assert.equal(NOTHING_CHANGED_422, 422);
    const problem = problems.nothingChanged('the workflow is suspended already');
    assert.deepEqual([problem.status, problem.title], [422, 'Nothing was changed']);
    assert.deepEqual(toProblemError(rejections.notApplicable('the workflow is suspended already')), problem);
  });

  it('is built by hand nowhere in the services and packages', () => {
    const handMade = ['services', 'packages']
      .flatMap((top) =>
        readdirSync(join(ROOT, top), { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => join(ROOT, top, e.name, 'src')),
      )
      .filter((src) => existsSync(src))
      .flatMap(sources)
      .filter((file) => HAND_MADE_422.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    assert.deepEqual(handMade, []);
  });
});
