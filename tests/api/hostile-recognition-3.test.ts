/**
 * A soft-mask bomb inside a PDF (issue 29, finding 3; the build's "memory" limit): an A4 page drawing a
 * 100 × 100 image whose `/SMask` declares 12000 × 12000 pixels of 8 bits, 141 KB in all. pdf.js bounds
 * the image's own size but decoded the mask at its declared size, in typed arrays outside the PDF
 * thread's heap bound: the page rendered and took the process to about 2 GB. Now the mask's declared
 * size is refused before pdf.js reads the file, and a mask whose size pdf.js resolves through indirect
 * objects is stopped by the memory watch, which terminates the thread past its bound: recognition fails
 * `too-large` naming the limit, `/healthz` answers within 2 s throughout, and an ordinary document is
 * recognised after them. The files are generated here, never committed.
 */
import { after, before, describe, it } from 'node:test';
import {
  assertOrdinaryScanRecognised,
  assertRecognitionFailed,
  HOSTILE_FILES,
} from '../support/hostile-recognition';
import { recogniseWhileProbing } from '../support/recognition-probe';
import { startEmbedded, type Target } from '../support/targets';

describe('a soft-mask bomb inside a PDF [embedded]', { timeout: 600_000 }, () => {
  let target: Target;

  before(async () => {
    target = await startEmbedded();
  });
  after(() => target?.stop());

  for (const [sizeBy, limit, hostile] of [
    ['direct', 'the mask', HOSTILE_FILES.softMaskBomb],
    ['reference', 'the memory bound', HOSTILE_FILES.softMaskBombIndirect],
  ] as const)
    it(`a 100 × 100 image with a 12000 × 12000 8-bit soft mask, its size ${sizeBy}: recognition fails 'too-large' naming ${limit}; /healthz answers within 2 s throughout`, async () => {
      const recognised = await recogniseWhileProbing(
        target,
        hostile.fileName,
        await hostile.file(),
        hostile.type,
      );
      assertRecognitionFailed(recognised, hostile.reasons, hostile.detail);
    });

  it('an ordinary scanned PDF after them is recognised', () => assertOrdinaryScanRecognised(target, 'pdf'));
});
