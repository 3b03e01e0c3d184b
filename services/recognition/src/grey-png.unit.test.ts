import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { encodeGreyPng, rgbaToGrey } from './grey-png';

describe('rgbaToGrey', () => {
  const cases: Array<[name: string, rgba: number[], grey: number]> = [
    ['white', [255, 255, 255, 255], 255],
    ['black', [0, 0, 0, 255], 0],
    ['pure green is brighter than pure red', [0, 255, 0, 255], 149],
    ['pure red', [255, 0, 0, 255], 76],
    ['alpha is ignored', [10, 10, 10, 0], 10],
  ];
  for (const [name, rgba, grey] of cases)
    it(name, () => assert.deepEqual([...rgbaToGrey(new Uint8Array(rgba), 1, 1)], [grey]));
});

describe('encodeGreyPng', () => {
  it('round-trips through a PNG decoder, pixel for pixel', async () => {
    const [width, height] = [7, 3];
    const grey = Uint8Array.from({ length: width * height }, (_, i) => (i * 37) % 256);
    const png = encodeGreyPng(grey, width, height);
    assert.equal(png[25], 0, 'colour type 0: grey');
    assert.equal(png[24], 8, '8 bits per pixel');
    const image = await loadImage(png);
    const ctx = createCanvas(width, height).getContext('2d');
    ctx.drawImage(image, 0, 0);
    const rgba = ctx.getImageData(0, 0, width, height).data;
    assert.deepEqual(
      [...grey],
      Array.from({ length: width * height }, (_, i) => rgba[i * 4]),
    );
  });

  it('refuses pixels that do not fill the size', () => {
    assert.throws(() => encodeGreyPng(new Uint8Array(5), 2, 3), RangeError);
  });
});
