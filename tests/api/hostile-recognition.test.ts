/**
 * Hostile attachments on an embedded instance (issue 29, findings 1 and 3): a PDF with a page tree
 * 400,000 levels deep, small PDFs of blank 200 × 200-inch pages, PNG decompression bombs. Each one's
 * recognition ends `failed` with its reason, `/healthz` answers within 2 s all the while, and an
 * ordinary document is recognised after them. The files are generated here, never committed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deepPageTreePdf, drawPageEncoded, hugePagePdf, pngBomb } from '@docflow/recognition';
import { recogniseWhileProbing } from '../support/recognition-probe';
import { startEmbedded, type Target } from '../support/targets';

const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'ACME GmbH, Hauptstrasse 1, 10115 Berlin' },
  { text: 'Invoice No. INV-2026-001' },
  { text: 'Total: 1,234.50' },
];

interface Hostile {
  name: string;
  file: () => Promise<Uint8Array> | Uint8Array;
  fileName: string;
  type: string;
  /** The reasons it may end with: the first bound it reaches. */
  reasons: string[];
  /** What its failure's detail names: the limit it reached. */
  detail: RegExp;
}

const HOSTILE: Hostile[] = [
  {
    name: 'a 42 MB PDF whose page tree is 400,000 levels deep',
    file: () => deepPageTreePdf(400_000),
    fileName: 'deep.pdf',
    type: 'application/pdf',
    // The PDF thread's heap bound (256 MiB; ~12 s on an idle machine) or, on a busy one, the 30 s bound
    // on opening a PDF: whichever comes first ends it.
    reasons: ['too-large', 'timeout'],
    detail: /needs more than 256 MiB of memory|took longer than/,
  },
  {
    name: 'a 2.5 KB PDF of 16 blank 200 × 200-inch pages',
    file: () => hugePagePdf(16, 200),
    fileName: 'huge-16.pdf',
    type: 'application/pdf',
    reasons: ['too-large'],
    detail: /page 1 is 200 × 200 inches/,
  },
  {
    name: 'a 28 KB PDF of 200 such pages',
    file: () => hugePagePdf(200, 200),
    fileName: 'huge-200.pdf',
    type: 'application/pdf',
    reasons: ['too-large'],
    detail: /page 1 is 200 × 200 inches/,
  },
  {
    name: 'a 0.57 MB PNG declaring 60000 × 60000 pixels of 1 bit',
    file: () => pngBomb(60_000, 60_000, 1),
    fileName: 'bomb-1bit.png',
    type: 'image/png',
    reasons: ['too-large'],
    detail: /declares 60000 × 60000 pixels/,
  },
  {
    name: 'a 0.95 MB PNG declaring 30000 × 30000 pixels of 8 bits',
    file: () => pngBomb(30_000, 30_000, 8),
    fileName: 'bomb-8bit.png',
    type: 'image/png',
    reasons: ['too-large'],
    detail: /declares 30000 × 30000 pixels/,
  },
];

describe('hostile recognition [embedded]', { timeout: 1_200_000 }, () => {
  let target: Target;

  before(async () => {
    target = await startEmbedded();
  });
  after(() => target?.stop());

  for (const hostile of HOSTILE)
    it(`${hostile.name}: recognition fails '${hostile.reasons.join("' or '")}'; /healthz answers within 2 s throughout`, async () => {
      // Generated before probing: building the 42 MB file holds this test's own event loop.
      const content = await hostile.file();
      const { doc, failure } = await recogniseWhileProbing(target, hostile.fileName, content, hostile.type);
      assert.equal(doc.recoStatus, 'failed', JSON.stringify(doc).slice(0, 500));
      assert.deepEqual(doc.recoData, []);
      assert.ok(hostile.reasons.includes(String(failure?.reason)), JSON.stringify(failure));
      assert.match(failure!.detail, hostile.detail);
    });

  it('an ordinary scan after them is recognised', async () => {
    const { doc } = await recogniseWhileProbing(
      target,
      'invoice.png',
      await drawPageEncoded(INVOICE, 'png'),
      'image/png',
    );
    assert.equal(doc.recoStatus, 'done', JSON.stringify(doc).slice(0, 500));
    assert.equal(doc.recoData[0]?.valuesByTags.invoiceNo, 'INV-2026-001');
  });
});
