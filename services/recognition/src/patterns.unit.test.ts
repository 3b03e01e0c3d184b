import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldMatches, firstMatch, MAX_PAGE_TEXT, patternText } from './patterns';

describe('patternText: the page text patterns read', () => {
  it('is bounded: a denser page is read up to MAX_PAGE_TEXT characters', () => {
    const page = `${'x'.repeat(MAX_PAGE_TEXT - 5)} Total 12 and more`;
    assert.equal(patternText(page).length, MAX_PAGE_TEXT);
    assert.equal(firstMatch(patternText(page), 'Total\\s+(\\d+)'), undefined);
  });

  it('line breaks become \\n and other whitespace a space, so RE2\u2019s \\s, . and $ read it as JavaScript did', () => {
    assert.equal(patternText('a\r\nb\rc\u2028d\u00a0e\u2003f\vg'), 'a\nb\nc\nd e f g');
    const page = 'Invoice No.\u00a0X-1\r\n';
    assert.equal(firstMatch(page, 'No\\.\\s+(\\S+)\\s*$'), undefined, 'RE2 alone: \\s is ASCII');
    assert.equal(firstMatch(patternText(page), 'No\\.\\s+(\\S+)\\s*$')?.[1], 'X-1');
  });
});

describe('field patterns', () => {
  it('a pattern the engine refuses matches nothing', () => {
    assert.equal(fieldMatches('aa', '(a)\\1'), false);
    assert.equal(firstMatch('xy', '(?<=x)y'), undefined);
  });
});
