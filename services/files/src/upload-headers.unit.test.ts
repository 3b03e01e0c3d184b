import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProblemError } from '@docflow/kit/http';
import { DEFAULT_CONTENT_TYPE, parseContentType, parseFileName } from './upload-headers';

const isBadRequest = (err: unknown) => err instanceof ProblemError && err.status === 400;

describe('parseFileName', () => {
  it('decodes percent-encoded UTF-8', () => {
    assert.equal(parseFileName(encodeURIComponent('Übersicht – 2026 €.pdf')), 'Übersicht – 2026 €.pdf');
    assert.equal(parseFileName(encodeURIComponent('日本語.txt')), '日本語.txt');
    assert.equal(parseFileName('plain.txt'), 'plain.txt');
  });

  it('accepts 255 characters, counting code points, and refuses 256', () => {
    assert.equal(parseFileName(encodeURIComponent('€'.repeat(255))), '€'.repeat(255));
    assert.equal(parseFileName(encodeURIComponent('😀'.repeat(255))), '😀'.repeat(255));
    assert.throws(() => parseFileName('a'.repeat(256)), isBadRequest);
  });

  const refused: [string, string | undefined][] = [
    ['missing', undefined],
    ['empty', ''],
    ['raw (not percent-encoded) non-ASCII', 'Ã\u009cbersicht.pdf'],
    ['a dot', '.'],
    ['two dots', '..'],
    ['undecodable escape', '%E0%A4%A'],
    ['invalid UTF-8', '%C3%28'],
    ['a lone surrogate', '%ED%A0%80'],
    ['a slash', encodeURIComponent('a/b.txt')],
    ['a backslash', encodeURIComponent('a\\b.txt')],
    ['a NUL', 'a%00b'],
    ['a newline', 'a%0Ab'],
    ['DEL', 'a%7Fb'],
    ['a C1 control', encodeURIComponent('a\u0085b')],
  ];
  for (const [what, header] of refused) {
    it(`refuses ${what} with 400`, () => {
      assert.throws(() => parseFileName(header), isBadRequest);
    });
  }
});

describe('parseContentType', () => {
  it('defaults to octet-stream', () => {
    assert.equal(parseContentType(undefined), DEFAULT_CONTENT_TYPE);
    assert.equal(parseContentType(''), DEFAULT_CONTENT_TYPE);
  });

  it('keeps a media type with parameters', () => {
    assert.equal(parseContentType('application/pdf'), 'application/pdf');
    assert.equal(parseContentType('text/plain; charset=utf-8'), 'text/plain; charset=utf-8');
    assert.equal(parseContentType('text/plain;format="flowed"'), 'text/plain;format="flowed"');
  });

  it('refuses what is not a media type', () => {
    for (const bad of ['pdf', 'text/', 'text/plain; charset', 'a/b\r\nx: y', `a/${'b'.repeat(300)}`])
      assert.throws(() => parseContentType(bad), isBadRequest, bad);
  });
});
