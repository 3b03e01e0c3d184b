import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TimeoutError } from '@docflow/timing';
import {
  createOcrPool,
  OcrImageError,
  OcrOverloadedError,
  type OcrPool,
  OcrUnavailableError,
} from './ocr-pool';
import { drawPageEncoded, drawPagePng } from './testing/fixtures';
import { INVOICE_LINES } from './testing/invoice-form';

const invoicePng = drawPagePng(INVOICE_LINES);
/** Colour PNG: tesseract takes ~3× longer on it than on grey, a slow page for the queue tests. */
const slowPage = await drawPageEncoded(INVOICE_LINES, 'png');
const tinyPage = drawPagePng([{ text: 'ok' }], 40);

describe('OCR pool of 2 warm workers', () => {
  let pool: OcrPool;
  before(async () => {
    pool = await createOcrPool({ size: 2 });
  });
  after(() => pool.terminate());

  it('starts warm, with every worker ready', () => {
    assert.deepEqual(pool.stats(), { size: 2, ready: 2, busy: 0, queued: 0 });
    assert.deepEqual(pool.languages, ['eng']);
  });

  it('reads an A4 invoice page at 300 dpi', async (t) => {
    const result = await pool.recognize(invoicePng);
    t.diagnostic(`warm worker, 8-bit grey A4 at 300 dpi: ${(result.ms / 1000).toFixed(2)} s/page`);
    for (const line of INVOICE_LINES)
      assert.match(result.text, new RegExp(line.text.replace(/[.,]/g, '\\$&')));
    assert.ok(result.confidence > 80, `confidence ${result.confidence}`);
  });

  it('runs 2 pages at once and queues the others', async (t) => {
    const started = performance.now();
    const jobs = Array.from({ length: 4 }, () => pool.recognize(invoicePng));
    assert.deepEqual(pool.stats(), { size: 2, ready: 0, busy: 2, queued: 2 });
    const results = await Promise.all(jobs);
    const wall = performance.now() - started;
    const serial = results.reduce((sum, r) => sum + r.ms, 0);
    t.diagnostic(
      `4 pages on 2 workers: ${(wall / 1000).toFixed(2)} s wall, ${(serial / 1000).toFixed(2)} s of OCR`,
    );
    assert.ok(wall < serial * 0.9, 'the pages overlapped');
    for (const r of results) assert.match(r.text, /INV-2026-001/);
    assert.deepEqual(pool.stats(), { size: 2, ready: 2, busy: 0, queued: 0 });
  });

  it('a corrupt image is a rejection, and the worker goes on', async () => {
    const png = Buffer.concat([invoicePng.subarray(0, 16), Buffer.from('not the rest of a png')]);
    await assert.rejects(pool.recognize(png), OcrImageError);
    await assert.rejects(pool.recognize(Buffer.from('plain text')), OcrImageError);
    assert.match((await pool.recognize(invoicePng)).text, /INVOICE/);
  });
});

describe('OCR pool back-pressure', () => {
  it('a full queue refuses at once; a job that waits too long is refused too', async () => {
    const pool = await createOcrPool({ size: 1, maxQueue: 1, queueTimeoutMs: 150 });
    try {
      const running = pool.recognize(slowPage);
      const waiting = pool.recognize(tinyPage);
      await assert.rejects(pool.recognize(tinyPage), OcrOverloadedError);
      assert.deepEqual(pool.stats(), { size: 1, ready: 0, busy: 1, queued: 1 });
      await assert.rejects(waiting, /no OCR worker was free within 150 ms/);
      assert.match((await running).text, /INV-2026-001/);
      await pool.recognize(tinyPage);
    } finally {
      await pool.terminate();
    }
  });

  it('a page over its time is rejected and its worker replaced', async () => {
    const pool = await createOcrPool({ size: 1, pageTimeoutMs: 400 });
    try {
      await assert.rejects(pool.recognize(slowPage), TimeoutError);
      assert.equal(pool.stats().ready, 0, 'the stuck worker is gone');
      // The next page waits in the queue for the fresh worker.
      await pool.recognize(tinyPage);
      assert.deepEqual(pool.stats(), { size: 1, ready: 1, busy: 0, queued: 0 });
    } finally {
      await pool.terminate();
    }
  });

  it('terminate rejects running and waiting jobs, and every later one', async () => {
    const pool = await createOcrPool({ size: 1 });
    const jobs = Promise.allSettled([pool.recognize(slowPage), pool.recognize(tinyPage)]);
    await pool.terminate();
    for (const job of await jobs) {
      assert.equal(job.status, 'rejected');
      assert.ok(job.reason instanceof OcrUnavailableError);
    }
    await assert.rejects(pool.recognize(tinyPage), OcrUnavailableError);
    await pool.terminate();
  });
});
