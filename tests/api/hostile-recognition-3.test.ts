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
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drawPage, imagePdf, softMaskBombPdf } from '@docflow/recognition';
import { recogniseWhileProbing } from '../support/recognition-probe';
import { startEmbedded, type Target } from '../support/targets';

const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'ACME GmbH, Hauptstrasse 1, 10115 Berlin' },
  { text: 'Invoice No. INV-2026-001' },
  { text: 'Total: 1,234.50' },
];

describe('a soft-mask bomb inside a PDF [embedded]', { timeout: 600_000 }, () => {
  let target: Target;

  before(async () => {
    target = await startEmbedded();
  });
  after(() => target?.stop());

  for (const [sizeBy, limit, detail] of [
    ['direct', 'the mask', /image mask \(object 6\) of 12000 × 12000 pixels, more than 35000000/],
    [
      'reference',
      'the memory bound',
      /rendering page 1 needs more than 1024 MiB of memory outside the JS heap/,
    ],
  ] as const)
    it(`a 100 × 100 image with a 12000 × 12000 8-bit soft mask, its size ${sizeBy}: recognition fails 'too-large' naming ${limit}; /healthz answers within 2 s throughout`, async () => {
      const { doc, failure } = await recogniseWhileProbing(
        target,
        'smask-bomb.pdf',
        await softMaskBombPdf(12_000, sizeBy),
        'application/pdf',
      );
      assert.equal(doc.recoStatus, 'failed', JSON.stringify(doc).slice(0, 500));
      assert.deepEqual(doc.recoData, []);
      assert.equal(failure?.reason, 'too-large', JSON.stringify(failure));
      assert.match(failure.detail, detail);
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
