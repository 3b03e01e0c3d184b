/**
 * A 1 GiB attachment, generated while it is sent, goes in and comes back out byte for byte while the
 * peak memory (VmHWM) of every server process stays bounded: files are streamed, never held whole.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { peakMiB } from '../support/process';
import { type Target, targets } from '../support/targets';

const SIZE = 1024 ** 3;
const CHUNK = 1024 * 1024;
/** Far below the upload: what a streaming server needs, not what buffering would. */
const PEAK_LIMIT_MIB = 400;

/** A multipart body whose single file is SIZE pseudo-random bytes, hashed as they are produced. */
function streamingMultipart(hash: ReturnType<typeof createHash>) {
  const boundary = `----docflow${randomBytes(8).toString('hex')}`;
  const seed = randomBytes(CHUNK);
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="docForm"\r\n\r\n{"_tags":["large"]}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="large.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  let sent = 0;
  let phase: 'head' | 'body' | 'tail' | 'done' = 'head';
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (phase === 'head') {
        controller.enqueue(head);
        phase = 'body';
      } else if (phase === 'body') {
        const chunk = Buffer.from(seed);
        chunk.writeUInt32BE(sent / CHUNK, 0); // every chunk differs
        hash.update(chunk);
        controller.enqueue(chunk);
        sent += CHUNK;
        if (sent >= SIZE) phase = 'tail';
      } else if (phase === 'tail') {
        controller.enqueue(tail);
        phase = 'done';
      } else controller.close();
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

for (const factory of targets()) {
  describe(`1 GiB upload and download [${factory.name}]`, { skip: factory.skip, timeout: 600_000 }, () => {
    let target: Target;
    before(async () => {
      target = await factory.start();
    });
    after(() => target?.stop());

    it('round-trips 1 GiB with bounded peak memory in every process', async () => {
      const sent = createHash('sha256');
      const { body, contentType } = streamingMultipart(sent);
      const started = Date.now();
      const res = await fetch(`${target.baseUrl}/api/v2/docForm/form/contract`, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.adminKey}`, 'content-type': contentType },
        body,
        duplex: 'half',
      } as RequestInit);
      const doc = (await res.json()) as any;
      assert.equal(res.status, 201, JSON.stringify(doc));
      const uploadS = (Date.now() - started) / 1000;

      const download = await fetch(
        `${target.baseUrl}/api/v2/docForm/${doc._id}/file/${doc.filesList[0].id}`,
        {
          headers: { authorization: `Bearer ${target.adminKey}` },
        },
      );
      assert.equal(download.status, 200);
      assert.equal(download.headers.get('content-length'), String(SIZE));
      const received = createHash('sha256');
      let size = 0;
      for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>) {
        received.update(chunk);
        size += chunk.length;
      }
      assert.equal(size, SIZE);
      assert.equal(received.digest('hex'), sent.digest('hex'));

      const peaks = Object.fromEntries(
        Object.entries(target.pids()).map(([name, pid]) => [name, peakMiB(pid)]),
      );
      // The figure for the closing note: peak RSS of each process over the whole run.
      console.log(
        `# 1 GiB [${factory.name}]: upload ${uploadS.toFixed(1)} s, peak RSS MiB ${JSON.stringify(peaks)}`,
      );
      for (const [name, peak] of Object.entries(peaks))
        assert.ok(peak < PEAK_LIMIT_MIB, `${name} peaked at ${peak} MiB`);
    });
  });
}
