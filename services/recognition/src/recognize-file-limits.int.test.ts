/**
 * Hostile files (issue 29) end with their failure reason, decided from what they declare before OCR
 * decodes or pdf.js renders anything, or by the bounds the main thread sets on the PDF thread.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createOcrPool, type OcrPool } from './ocr-pool';
import {
  type RecoFailureReason,
  type RecognizeFileOptions,
  recoFailureProblem,
  recognizeFile,
} from './recognize-file';
import { drawPage, drawPageEncoded, greyTiff, imagePdf } from './testing/fixtures';
import { deepPageTreePdf, hugePagePdf, pngBomb } from './testing/hostile';
import { INVOICE_FORM, INVOICE_LINES } from './testing/invoice-form';

let pool: OcrPool;
/** Pages handed to OCR: a refused file hands it none. */
let ocrCalls = 0;

before(async () => {
  const real = await createOcrPool({ size: 1 });
  pool = {
    languages: real.languages,
    recognize: (image) => {
      ocrCalls++;
      return real.recognize(image);
    },
    toPng: (image) => real.toPng(image),
    stats: () => real.stats(),
    terminate: () => real.terminate(),
  };
});
after(() => pool?.terminate());

describe('recognizeFile: hostile files end with their reason', () => {
  const cases: Array<{
    name: string;
    file: () => Promise<Uint8Array> | Uint8Array;
    reason: RecoFailureReason;
    status: number;
    detail: RegExp;
    options?: RecognizeFileOptions;
  }> = [
    {
      name: 'a 0.57 MB PNG declaring 60000 × 60000 pixels of 1 bit',
      file: () => pngBomb(60_000, 60_000, 1),
      reason: 'too-large',
      status: 413,
      detail: /declares 60000 × 60000 pixels; at most 35000000/,
    },
    {
      name: 'a 0.95 MB PNG declaring 30000 × 30000 pixels of 8 bits',
      file: () => pngBomb(30_000, 30_000, 8),
      reason: 'too-large',
      status: 413,
      detail: /declares 30000 × 30000 pixels/,
    },
    {
      name: 'a TIFF declaring 100000 × 100000 pixels',
      file: () => greyTiff({ grey: new Uint8Array(1), width: 100_000, height: 100_000, dpi: 300 }),
      reason: 'too-large',
      status: 413,
      detail: /declares 100000 × 100000 pixels/,
    },
    {
      name: 'a 2 KB PDF of 16 blank pages of 200 × 200 inches',
      file: () => hugePagePdf(16, 200),
      reason: 'too-large',
      status: 413,
      detail: /page 1 is 200 × 200 inches/,
    },
    {
      name: 'a 28 KB PDF of 200 such pages',
      file: () => hugePagePdf(200, 200),
      reason: 'too-large',
      status: 413,
      detail: /page 1 is 200 × 200 inches/,
    },
    {
      name: 'a PDF whose page tree is 100,000 levels deep, over a 64 MiB PDF heap',
      file: () => deepPageTreePdf(100_000),
      reason: 'too-large',
      status: 413,
      detail: /needs more than 64 MiB of memory/,
      // The time bound out of the heap bound's way on a busy machine.
      options: { pdfHeapMiB: 64, pdfTimeoutMs: 600_000 },
    },
    {
      name: 'the same PDF, over a 100 ms bound per PDF operation',
      file: () => deepPageTreePdf(100_000),
      reason: 'timeout',
      status: 422,
      detail: /opening the PDF took longer than 100 ms/,
      options: { pdfTimeoutMs: 100 },
    },
    {
      name: 'a scanned PDF, over a 1 ms bound on the whole file',
      file: () => imagePdf([drawPage(INVOICE_LINES, 100)]),
      reason: 'timeout',
      status: 422,
      detail: /took longer than its time limit/,
      options: { fileTimeoutMs: 1 },
    },
  ];
  for (const { name, file, reason, status, detail, options } of cases)
    it(`${name} → ${reason}, no page OCRed`, async () => {
      const before = ocrCalls;
      const result = await recognizeFile({ data: await file() }, INVOICE_FORM, pool, options);
      assert.equal(result.ok, false, JSON.stringify(result).slice(0, 300));
      assert.equal(!result.ok && result.reason, reason, !result.ok ? result.detail : '');
      assert.match(!result.ok ? result.detail : '', detail);
      assert.equal(!result.ok && recoFailureProblem(result).status, status);
      assert.equal(ocrCalls, before);
    });

  it('after them an ordinary scan is recognised', async () => {
    const result = await recognizeFile(
      { data: await drawPageEncoded(INVOICE_LINES, 'png') },
      INVOICE_FORM,
      pool,
    );
    assert.ok(result.ok, result.ok ? '' : result.detail);
    assert.equal(result.parts[0]?.valuesByTags.invoiceNo, 'INV-2026-001');
  });
});
