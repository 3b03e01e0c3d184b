/** A 512 MiB upload and download flow through the service in bounded memory: nothing holds the file whole. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { StoredFile } from '@docflow/contracts';
import { authHeaders, type Harness, startHarness, upload } from './test-harness';

const MiB = 1024 * 1024;
const TOTAL_MIB = 512;
const RSS_BUDGET = 200 * MiB;
const SAMPLE_EVERY_MS = 20;

/** Highest RSS growth over `baseline` while `work` runs. */
async function peakRssGrowth(work: () => Promise<void>): Promise<number> {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, SAMPLE_EVERY_MS);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, process.memoryUsage().rss) - baseline;
}

describe('streaming through the files service', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ maxUploadBytes: TOTAL_MIB * MiB });
  });
  after(() => h.close());

  it(`uploads and downloads ${TOTAL_MIB} MiB with RSS growth well under 200 MiB`, async (t) => {
    const expected = createHash('sha256');
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === TOTAL_MIB) return controller.close();
        const chunk = Buffer.alloc(MiB, sent % 251);
        chunk.writeUInt32BE(sent, 0);
        expected.update(chunk);
        sent++;
        controller.enqueue(chunk);
      },
    });
    let stored: StoredFile | undefined;
    const uploadGrowth = await peakRssGrowth(async () => {
      const res = await upload(h.service, body, { fileName: 'big.bin' });
      assert.equal(res.status, 201);
      stored = (await res.json()) as StoredFile;
    });
    assert.equal(stored?.size, TOTAL_MIB * MiB);
    assert.equal(stored?.sha256, expected.digest('hex'));

    const received = createHash('sha256');
    let receivedBytes = 0;
    const downloadGrowth = await peakRssGrowth(async () => {
      const res = await h.service.app.fetch(
        new Request(`http://files/internal/v1/files/${stored?.id}`, { headers: authHeaders }),
      );
      assert.equal(res.status, 200);
      assert.ok(res.body);
      for await (const chunk of res.body) {
        received.update(chunk);
        receivedBytes += chunk.byteLength;
      }
    });
    assert.equal(receivedBytes, TOTAL_MIB * MiB);
    assert.equal(received.digest('hex'), stored?.sha256);

    t.diagnostic(`peak RSS growth: upload ${(uploadGrowth / MiB).toFixed(1)} MiB`);
    t.diagnostic(`peak RSS growth: download ${(downloadGrowth / MiB).toFixed(1)} MiB`);
    assert.ok(uploadGrowth < RSS_BUDGET, `upload grew RSS by ${(uploadGrowth / MiB).toFixed(1)} MiB`);
    assert.ok(downloadGrowth < RSS_BUDGET, `download grew RSS by ${(downloadGrowth / MiB).toFixed(1)} MiB`);
  });
});
