import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MIN_PAGE_WIDTH_PX, type Segmentation, segmentationFor } from './page-segmentation';

describe('page segmentation: layout analysis for pages, one block for strips', () => {
  const cases: Array<[what: string, width: number, expected: Segmentation]> = [
    ['A4 rendered at 300 dpi', 2480, 'auto'],
    ['A4 scanned at 150 dpi', 1240, 'auto'],
    ['Letter at 100 dpi', 850, 'auto'],
    ['A4 at 100 dpi (827 px): coarser than layout analysis reads', 827, 'block'],
    ['an 80 mm till receipt at 200 dpi', 630, 'block'],
    ['a receipt photo scaled down to 600 px', 600, 'block'],
    ['a 58 mm receipt at 203 dpi', 464, 'block'],
  ];
  for (const [what, width, expected] of cases)
    it(`${what}: ${expected}`, () => assert.equal(segmentationFor(width), expected));

  it('the bound is a Letter page at 100 dpi', () => {
    assert.equal(segmentationFor(MIN_PAGE_WIDTH_PX - 1), 'block');
    assert.equal(segmentationFor(MIN_PAGE_WIDTH_PX), 'auto');
  });
});
