/**
 * Hostile attachments in distributed mode (issue 29, findings 1 and 3; the build's "recognition off the
 * event loop, in both modes"): the recognition service reads files in its own process, so there the
 * worst hostile file of each kind must leave its `/healthz` (and the gateway's) answering within 2 s,
 * and end `failed` with its reason; an ordinary scan is recognised after them. The files are generated
 * here, never committed (tests/api/hostile-recognition*.test.ts: the same files, embedded).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  deepPageTreePdf,
  drawPageEncoded,
  hugePagePdf,
  imageBombPdf,
  pngBomb,
  softMaskBombPdf,
} from '@docflow/recognition';
import { recogniseWhileProbing } from '../support/recognition-probe';
import { type DistributedTarget, distributedSkipReason, startDistributed } from '../support/targets';

const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'Invoice No. INV-2026-001' },
  { text: 'Total: 1,234.50' },
];

const HOSTILE: Array<{
  name: string;
  file: () => Promise<Uint8Array> | Uint8Array;
  fileName: string;
  type: string;
  /** The reasons it may end with: the first bound it reaches. */
  reasons: string[];
  /** What its failure's detail names: the limit it reached. */
  detail: RegExp;
}> = [
  {
    name: 'a PDF whose page tree is 400,000 levels deep',
    file: () => deepPageTreePdf(400_000),
    fileName: 'deep.pdf',
    type: 'application/pdf',
    // The PDF thread's heap bound or, on a busy machine, the 30 s bound on opening a PDF.
    reasons: ['too-large', 'timeout'],
    detail: /needs more than 256 MiB of memory|took longer than/,
  },
  {
    name: 'a PDF of 16 blank 200 × 200-inch pages',
    file: () => hugePagePdf(16, 200),
    fileName: 'huge-16.pdf',
    type: 'application/pdf',
    reasons: ['too-large'],
    detail: /page 1 is 200 × 200 inches/,
  },
  {
    name: 'a PNG declaring 30000 × 30000 pixels of 8 bits',
    file: () => pngBomb(30_000, 30_000, 8),
    fileName: 'bomb-8bit.png',
    type: 'image/png',
    reasons: ['too-large'],
    detail: /declares 30000 × 30000 pixels/,
  },
  {
    name: 'a PDF page drawing a 60000 × 60000 1-bit image',
    file: () => imageBombPdf(60_000, 60_000, 1),
    fileName: 'image-bomb.pdf',
    type: 'application/pdf',
    reasons: ['too-large'],
    detail: /page 1 draws an image of more than 35000000 pixels/,
  },
  {
    name: 'a PDF page drawing a 100 × 100 image with a 12000 × 12000 8-bit soft mask',
    file: () => softMaskBombPdf(12_000),
    fileName: 'smask-bomb.pdf',
    type: 'application/pdf',
    reasons: ['too-large'],
    detail: /image mask \(object 6\) of 12000 × 12000 pixels, more than 35000000/,
  },
  {
    name: 'the same soft mask declaring its size through indirect objects (the memory watch)',
    file: () => softMaskBombPdf(12_000, 'reference'),
    fileName: 'smask-bomb-indirect.pdf',
    type: 'application/pdf',
    reasons: ['too-large'],
    detail: /rendering page 1 needs more than 1024 MiB of memory outside the JS heap/,
  },
];

describe('distributed: hostile recognition', { skip: distributedSkipReason(), timeout: 900_000 }, () => {
  let target: DistributedTarget;
  /** The gateway and the recognition service. */
  let probed: string[];

  before(async () => {
    target = await startDistributed();
    const urls = target.processUrls();
    probed = [target.baseUrl, urls.recognition!];
    assert.ok(urls.recognition, Object.keys(urls).join(', '));
  });
  after(() => target?.stop());

  for (const hostile of HOSTILE)
    it(`${hostile.name}: recognition fails '${hostile.reasons.join("' or '")}'; the gateway's and the recognition service's /healthz answer within 2 s throughout`, async () => {
      const content = await hostile.file();
      const { doc, failure } = await recogniseWhileProbing(
        target,
        hostile.fileName,
        content,
        hostile.type,
        probed,
      );
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
      probed,
    );
    assert.equal(doc.recoStatus, 'done', JSON.stringify(doc).slice(0, 500));
    assert.equal(doc.recoData[0]?.valuesByTags.invoiceNo, 'INV-2026-001');
  });
});
