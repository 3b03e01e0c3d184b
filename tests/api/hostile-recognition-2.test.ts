/**
 * The PNG bomb inside a PDF (issue 29, findings 1 and 3; the build's "declared pixel count checked
 * before any decoding"): an A4 page that draws an image XObject declaring 20000 × 20000 or 60000 × 60000
 * pixels of 1 bit. pdf.js decoded such an image at its declared size outside the PDF thread's heap
 * bound (the 50 KB one took 3.5 GB) and the page rendered blank, so the job ended `done` with nothing.
 * Now its recognition fails `too-large`, `/healthz` answers within 2 s throughout, and an ordinary
 * document is recognised after it. The files are generated here, never committed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drawPage, imageBombPdf, imagePdf } from '@docflow/recognition';
import { recogniseWhileProbing } from '../support/recognition-probe';
import { startEmbedded, type Target } from '../support/targets';

const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'ACME GmbH, Hauptstrasse 1, 10115 Berlin' },
  { text: 'Invoice No. INV-2026-001' },
  { text: 'Total: 1,234.50' },
];

describe('hostile images inside PDFs [embedded]', { timeout: 600_000 }, () => {
  let target: Target;

  before(async () => {
    target = await startEmbedded();
  });
  after(() => target?.stop());

  for (const side of [20_000, 60_000])
    it(`an A4 page drawing a ${side} × ${side} 1-bit image: recognition fails 'too-large' naming the image; /healthz answers within 2 s throughout`, async () => {
      const content = await imageBombPdf(side, side, 1);
      const { doc, failure } = await recogniseWhileProbing(
        target,
        'image-bomb.pdf',
        content,
        'application/pdf',
      );
      assert.equal(doc.recoStatus, 'failed', JSON.stringify(doc).slice(0, 500));
      assert.deepEqual(doc.recoData, []);
      assert.equal(failure?.reason, 'too-large', JSON.stringify(failure));
      assert.match(failure.detail, /page 1 draws an image of more than 35000000 pixels/);
    });

  it('an ordinary scanned PDF after them is recognised', async () => {
    const { doc } = await recogniseWhileProbing(
      target,
      'invoice.pdf',
      imagePdf([drawPage(INVOICE)]),
      'application/pdf',
    );
    assert.equal(doc.recoStatus, 'done', JSON.stringify(doc).slice(0, 500));
    assert.equal(doc.recoData[0]?.valuesByTags.invoiceNo, 'INV-2026-001');
  });
});
