import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { declaredFileKind, type FileKind, sniffFileKind } from './file-kind';

const bytes = (...parts: Array<number[] | string>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('sniffFileKind', () => {
  const cases: Array<[name: string, input: Uint8Array, kind: FileKind | undefined]> = [
    ['PNG', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'png'],
    ['JPEG', bytes([0xff, 0xd8, 0xff, 0xe0]), 'jpeg'],
    ['TIFF little-endian', bytes('II', [0x2a, 0]), 'tiff'],
    ['TIFF big-endian', bytes('MM', [0, 0x2a]), 'tiff'],
    ['PDF', bytes('%PDF-1.7\n'), 'pdf'],
    ['PDF after leading junk', bytes('\r\n\r\n%PDF-1.4'), 'pdf'],
    ['a PNG signature cut short', bytes([0x89, 0x50, 0x4e]), undefined],
    ['text', bytes('hello'), undefined],
    ['nothing', bytes(), undefined],
  ];
  for (const [name, input, kind] of cases) it(name, () => assert.equal(sniffFileKind(input), kind));
});

describe('declaredFileKind', () => {
  const cases: Array<
    [contentType: string | undefined, fileName: string | undefined, kind: FileKind | undefined]
  > = [
    ['application/pdf', undefined, 'pdf'],
    ['IMAGE/PNG; charset=binary', undefined, 'png'],
    ['application/octet-stream', 'scan.TIFF', 'tiff'],
    [undefined, 'photo.jpg', 'jpeg'],
    ['text/plain', 'notes.txt', undefined],
    [undefined, undefined, undefined],
  ];
  for (const [contentType, fileName, kind] of cases)
    it(`${contentType} ${fileName} → ${kind}`, () =>
      assert.equal(declaredFileKind(contentType, fileName), kind));
});
