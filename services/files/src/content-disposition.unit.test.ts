import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asciiFallback, contentDisposition, encodeRfc5987 } from './content-disposition';

/** What a client does with `filename*=UTF-8''…`: percent-decode the value. */
const decodedFilenameStar = (header: string) =>
  decodeURIComponent(/filename\*=UTF-8''([^;\s]+)/.exec(header)?.[1] ?? '');

describe('contentDisposition', () => {
  it('encodes non-ASCII names as UTF-8 and falls back to ASCII with underscores', () => {
    const name = 'Übersicht – 2026 €.pdf';
    const header = contentDisposition(name);
    assert.equal(
      header,
      `attachment; filename="_bersicht _ 2026 _.pdf"; filename*=UTF-8''%C3%9Cbersicht%20%E2%80%93%202026%20%E2%82%AC.pdf`,
    );
    assert.equal(decodedFilenameStar(header), name);
  });

  it('round-trips CJK names; the fallback has one underscore per character', () => {
    const header = contentDisposition('日本語.txt');
    assert.equal(header, `attachment; filename="___.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.txt`);
    assert.equal(decodedFilenameStar(header), '日本語.txt');
  });

  it('counts an astral character as one underscore', () => {
    assert.equal(asciiFallback('😀.png'), '_.png');
  });

  it('drops quotes and backslashes from the fallback and percent-encodes them in filename*', () => {
    const name = `say "hi" \\ it's (1)*.txt`;
    const header = contentDisposition(name);
    assert.equal(asciiFallback(name), `say hi  it's (1)*.txt`);
    assert.match(header, /^attachment; filename="say hi {2}it's \(1\)\*\.txt"; filename\*=UTF-8''/);
    assert.equal(decodedFilenameStar(header), name);
  });

  it("escapes the characters encodeURIComponent leaves alone: ' ( ) *", () => {
    assert.equal(encodeRfc5987("a'b(c)d*e"), 'a%27b%28c%29d%2Ae');
    assert.equal(encodeRfc5987('plain-name_1.0~x!'), 'plain-name_1.0~x!');
  });
});
