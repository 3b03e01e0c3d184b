/** Which README blocks the README test runs: ```sh ones in file order, not ```sh norun, nothing else. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runnableShellBlocks } from './shell-blocks';

const FENCE = '```';

describe('README shell blocks', () => {
  it('keeps the sh blocks in file order with their line numbers, skipping norun and other languages', () => {
    const markdown = [
      '# Title', // 1
      `${FENCE}sh`, // 2
      'echo one', // 3
      'echo two', // 4
      FENCE, // 5
      `${FENCE}sh norun`, // 6
      'pnpm start', // 7
      FENCE, // 8
      `${FENCE}ts`, // 9
      'const a = 1;', // 10
      FENCE, // 11
      FENCE, // 12: no language
      'hash = x', // 13
      FENCE, // 14
      '- a list item', // 15
      `  ${FENCE}sh`, // 16
      '  echo three', // 17
      '    echo indented', // 18
      `  ${FENCE}`, // 19
    ].join('\n');
    assert.deepEqual(runnableShellBlocks(markdown), [
      { line: 3, lines: ['echo one', 'echo two'] },
      { line: 17, lines: ['echo three', '  echo indented'] },
    ]);
  });

  it('does not take a sh fence inside a longer fence for a block', () => {
    const markdown = ['````md', `${FENCE}sh`, 'echo quoted', FENCE, '````', `${FENCE}sh`, 'echo real', FENCE];
    assert.deepEqual(runnableShellBlocks(markdown.join('\n')), [{ line: 7, lines: ['echo real'] }]);
  });

  it('refuses a flag it does not know, so a typo of norun cannot run a block', () => {
    assert.throws(() => runnableShellBlocks(`${FENCE}sh no-run\necho x\n${FENCE}`), /only the flag norun/);
  });

  it('refuses a block that is never closed', () => {
    assert.throws(() => runnableShellBlocks(`${FENCE}sh\necho x\n`), /not closed/);
  });
});
