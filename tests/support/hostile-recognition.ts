/**
 * The hostile files of issue 29 and what their recognition must end with, shared by the embedded and
 * distributed hostile-recognition tests: each file generated on demand (never committed), the assertion
 * on a failed recognition, and the ordinary scan recognised after them.
 */
import assert from 'node:assert/strict';
import {
  deepPageTreePdf,
  drawPage,
  drawPageEncoded,
  hugePagePdf,
  imageBombPdf,
  imagePdf,
  pngBomb,
  softMaskBombPdf,
} from '@docflow/recognition';
import { type Recognised, recogniseWhileProbing } from './recognition-probe';
import type { Target } from './targets';

export interface HostileFile {
  name: string;
  file: () => Promise<Uint8Array> | Uint8Array;
  fileName: string;
  type: string;
  /** The reasons it may end with: the first bound it reaches. */
  reasons: string[];
  /** What its failure's detail names: the limit it reached. */
  detail: RegExp;
}

export const HOSTILE_FILES = {
  deepPageTree: {
    name: 'a 42 MB PDF whose page tree is 400,000 levels deep',
    file: () => deepPageTreePdf(400_000),
    fileName: 'deep.pdf',
    type: 'application/pdf',
    // The PDF thread's heap bound (256 MiB; ~12 s on an idle machine) or, on a busy one, the 30 s bound
    // on opening a PDF: whichever comes first ends it.
    reasons: ['too-large', 'timeout'],
    detail: /needs more than 256 MiB of memory|took longer than/,
  },
  hugePages16: {
    name: 'a 2.5 KB PDF of 16 blank 200 × 200-inch pages',
    file: () => hugePagePdf(16, 200),
    fileName: 'huge-16.pdf',
    type: 'application/pdf',
    reasons: ['too-large'],
    detail: /page 1 is 200 × 200 inches/,
  },
  hugePages200: {
    name: 'a 28 KB PDF of 200 such pages',
    file: () => hugePagePdf(200, 200),
    fileName: 'huge-200.pdf',
    type: 'application/pdf',
    reasons: ['too-large'],
    detail: /page 1 is 200 × 200 inches/,
  },
  pngBomb1Bit: {
    name: 'a 0.57 MB PNG declaring 60000 × 60000 pixels of 1 bit',
    file: () => pngBomb(60_000, 60_000, 1),
    fileName: 'bomb-1bit.png',
    type: 'image/png',
    reasons: ['too-large'],
    detail: /declares 60000 × 60000 pixels/,
  },
  pngBomb8Bit: {
    name: 'a 0.95 MB PNG declaring 30000 × 30000 pixels of 8 bits',
    file: () => pngBomb(30_000, 30_000, 8),
    fileName: 'bomb-8bit.png',
    type: 'image/png',
    reasons: ['too-large'],
    detail: /declares 30000 × 30000 pixels/,
  },
  imageBomb: {
    name: 'a PDF page drawing a 60000 × 60000 1-bit image',
    file: () => imageBombPdf(60_000, 60_000, 1),
    fileName: 'image-bomb.pdf',
    type: 'application/pdf',
    reasons: ['too-large'],
    detail: /page 1 draws an image of more than 35000000 pixels/,
  },
  softMaskBomb: {
    name: 'a PDF page drawing a 100 × 100 image with a 12000 × 12000 8-bit soft mask',
    file: () => softMaskBombPdf(12_000),
    fileName: 'smask-bomb.pdf',
    type: 'application/pdf',
    reasons: ['too-large'],
    detail: /image mask \(object 6\) of 12000 × 12000 pixels, more than 35000000/,
  },
  softMaskBombIndirect: {
    name: 'the same soft mask declaring its size through indirect objects (the memory watch)',
    file: () => softMaskBombPdf(12_000, 'reference'),
    fileName: 'smask-bomb-indirect.pdf',
    type: 'application/pdf',
    reasons: ['too-large'],
    detail: /rendering page 1 needs more than 1024 MiB of memory outside the JS heap/,
  },
} satisfies Record<string, HostileFile>;

/** Asserts that a recognition ended `failed`, with no data, one of `reasons` and a detail matching `detail`. */
export function assertRecognitionFailed(
  { doc, failure }: Recognised,
  reasons: readonly string[],
  detail: RegExp,
): void {
  assert.equal(doc.recoStatus, 'failed', JSON.stringify(doc).slice(0, 500));
  assert.deepEqual(doc.recoData, []);
  assert.ok(reasons.includes(String(failure?.reason)), JSON.stringify(failure));
  assert.match(failure!.detail, detail);
}

const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'ACME GmbH, Hauptstrasse 1, 10115 Berlin' },
  { text: 'Invoice No. INV-2026-001' },
  { text: 'Total: 1,234.50' },
];

/**
 * Recognises an ordinary scanned invoice (a PNG, or a PDF of that scan) while probing `probed`, and
 * asserts its number was read: the service still works after the hostile files.
 */
export async function assertOrdinaryScanRecognised(
  target: Target,
  format: 'png' | 'pdf',
  probed?: string[],
): Promise<void> {
  const { doc } =
    format === 'png'
      ? await recogniseWhileProbing(
          target,
          'invoice.png',
          await drawPageEncoded(INVOICE, 'png'),
          'image/png',
          probed,
        )
      : await recogniseWhileProbing(
          target,
          'invoice.pdf',
          imagePdf([drawPage(INVOICE)]),
          'application/pdf',
          probed,
        );
  assert.equal(doc.recoStatus, 'done', JSON.stringify(doc).slice(0, 500));
  assert.equal(doc.recoData[0]?.valuesByTags.invoiceNo, 'INV-2026-001');
}
