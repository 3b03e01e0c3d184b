/**
 * The OCR pool segments each page as asked (page-segmentation.ts), for that page only: tesseract's
 * layout analysis finds a page's columns as blocks of their own, one uniform block reads across them.
 * Real tesseract.js on a page rendered at run time.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createOcrPool, type OcrPool } from './ocr-pool';
import { openPdfInWorker } from './pdf-thread';
import { placedTextPdf } from './testing/fixtures';

/** A table of three columns under its header, small print as invoices set it. */
const ROWS: string[][] = [
  ['Description', 'Units', 'Amount'],
  ['Nougat', '50', '204,75'],
  ['Biscuits', '40', '128,00'],
  ['Honey', '10', '198,00'],
];
const COLUMNS = [60, 300, 480];
const pieces = [
  { text: 'INVOICE', x: 60, y: 80, size: 26 },
  ...ROWS.flatMap((cells, i) => cells.map((text, c) => ({ text, x: COLUMNS[c]!, y: 300 + 15 * i, size: 8 }))),
];

/** Whether tesseract's text has each row's cells on one line. */
const rowsRead = (text: string) =>
  ROWS.every((cells) => text.split('\n').some((l) => cells.every((c) => l.includes(c))));

describe('OCR page segmentation per page', () => {
  let pool: OcrPool;
  let page: Buffer;
  before(async () => {
    const pdf = await openPdfInWorker(placedTextPdf([pieces]));
    try {
      page = await pdf.renderPage(0, 150);
    } finally {
      await pdf.close();
    }
    pool = await createOcrPool({ size: 1 });
  });
  after(() => pool.terminate());

  it('`auto` reads the columns as blocks of their own, `block` across them, and neither lingers', async () => {
    const auto = await pool.recognize(page, 'auto');
    const block = await pool.recognize(page, 'block');
    const autoAgain = await pool.recognize(page);
    assert.equal(rowsRead(auto.text), false, auto.text);
    assert.equal(rowsRead(block.text), true, block.text);
    assert.equal(autoAgain.text, auto.text, 'the default is `auto`, whatever the job before asked');
  });
});
