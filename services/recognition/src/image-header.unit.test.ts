import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { declaredImageSize } from './image-header';
import { drawPageEncoded, greyTiff } from './testing/fixtures';
import { pngBomb } from './testing/hostile';

const LINES = [{ text: 'INVOICE' }];

describe('declaredImageSize', () => {
  it('PNG: the IHDR size, of a real page and of a decompression bomb (never decoded)', async () => {
    assert.deepEqual(declaredImageSize(await drawPageEncoded(LINES, 'png', 72), 'png'), {
      width: 595,
      height: 842,
    });
    assert.deepEqual(declaredImageSize(await pngBomb(20_000, 30_000, 1), 'png'), {
      width: 20_000,
      height: 30_000,
    });
  });

  it('JPEG: the SOF size, past the APP and table segments before it', async () => {
    const jpeg = await drawPageEncoded(LINES, 'jpeg', 72);
    assert.deepEqual(declaredImageSize(jpeg, 'jpeg'), { width: 595, height: 842 });
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    const declaring = Buffer.from(jpeg);
    declaring.writeUInt16BE(65_000, sof + 5);
    declaring.writeUInt16BE(65_000, sof + 7);
    assert.deepEqual(declaredImageSize(declaring, 'jpeg'), { width: 65_000, height: 65_000 });
  });

  it('TIFF: ImageWidth and ImageLength of the first IFD', () => {
    const tiff = greyTiff({ grey: new Uint8Array(6), width: 3, height: 2, dpi: 72 });
    assert.deepEqual(declaredImageSize(tiff, 'tiff'), { width: 3, height: 2 });
    const big = greyTiff({ grey: new Uint8Array(1), width: 100_000, height: 100_000, dpi: 72 });
    assert.deepEqual(declaredImageSize(big, 'tiff'), { width: 100_000, height: 100_000 });
  });

  const broken: Array<[name: string, bytes: Uint8Array, kind: 'png' | 'jpeg' | 'tiff']> = [
    ['a PNG cut inside its signature', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'png'],
    [
      'a PNG whose first chunk is not IHDR',
      Buffer.concat([Buffer.alloc(12), Buffer.from('IDAT'), Buffer.alloc(16)]),
      'png',
    ],
    ['a JPEG with no frame header before its data', Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2]), 'jpeg'],
    ['a JPEG whose segments run off its end', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0xff, 0xff]), 'jpeg'],
    ['a TIFF whose IFD lies past its end', Buffer.from([0x49, 0x49, 0x2a, 0, 0xff, 0xff, 0, 0]), 'tiff'],
    ['a PNG declaring 0 × 0', Buffer.concat([Buffer.alloc(12), Buffer.from('IHDR'), Buffer.alloc(8)]), 'png'],
  ];
  for (const [name, bytes, kind] of broken)
    it(`${name}: no size (unreadable)`, () => assert.equal(declaredImageSize(bytes, kind), undefined));
});
