/**
 * The PNG bomb inside a PDF (issue 29, findings 1 and 3; the build's "declared pixel count checked
 * before any decoding"): an A4 page that draws an image XObject declaring 20000 × 20000 or 60000 × 60000
 * pixels of 1 bit. pdf.js decoded such an image at its declared size outside the PDF thread's heap
 * bound (the 50 KB one took 3.5 GB) and the page rendered blank, so the job ended `done` with nothing.
 * Now its recognition fails `too-large`, `/healthz` answers within 2 s throughout, and an ordinary
 * document is recognised after it. The files are generated here, never committed.
 */
import { after, before, describe, it } from 'node:test';
import { imageBombPdf } from '@docflow/recognition';
import { assertOrdinaryScanRecognised, assertRecognitionFailed } from '../support/hostile-recognition';
import { recogniseWhileProbing } from '../support/recognition-probe';
import { startEmbedded, type Target } from '../support/targets';

describe('hostile images inside PDFs [embedded]', { timeout: 600_000 }, () => {
  let target: Target;

  before(async () => {
    target = await startEmbedded();
  });
  after(() => target?.stop());

  for (const side of [20_000, 60_000])
    it(`an A4 page drawing a ${side} × ${side} 1-bit image: recognition fails 'too-large' naming the image; /healthz answers within 2 s throughout`, async () => {
      const content = await imageBombPdf(side, side, 1);
      const recognised = await recogniseWhileProbing(target, 'image-bomb.pdf', content, 'application/pdf');
      assertRecognitionFailed(
        recognised,
        ['too-large'],
        /page 1 draws an image of more than 35000000 pixels/,
      );
    });

  it('an ordinary scanned PDF after them is recognised', () => assertOrdinaryScanRecognised(target, 'pdf'));
});
