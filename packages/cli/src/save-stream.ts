/**
 * Writes a streamed answer (an export bundle, an attachment) to a file, with a progress bar on stderr
 * when it is a terminal (bytes, rate; a percentage and time left when the server sends the size). The
 * file is written next to the target and renamed into place once whole, so a failed transfer leaves
 * no partial file.
 */
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { SingleBar } from 'cli-progress';

const KIB = 1024;

/** Saves `response`'s body to `out`; resolves to the number of bytes written. */
export async function saveStream(response: Response, out: string, label: string): Promise<number> {
  const size = Number(response.headers.get('content-length') ?? 0);
  const bar = new SingleBar({
    stream: process.stderr,
    format: size
      ? `${label} [{bar}] {percentage}% · {kib}/{totalKib} KiB · {rate} KiB/s · {eta_formatted} left`
      : `${label}: {kib} KiB · {rate} KiB/s`,
    hideCursor: true,
  });
  const started = performance.now();
  let bytes = 0;
  const payload = () => ({
    kib: Math.round(bytes / KIB).toLocaleString('en'),
    totalKib: Math.round(size / KIB).toLocaleString('en'),
    rate: Math.round(bytes / KIB / Math.max((performance.now() - started) / 1000, 1e-3)).toLocaleString('en'),
  });
  bar.start(size || 1, 0, payload());
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      bar.update(size ? bytes : 0, payload());
      done(null, chunk);
    },
  });
  const part = `${out}.part`;
  try {
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      counted,
      createWriteStream(part),
    );
    renameSync(part, out);
  } catch (error) {
    rmSync(part, { force: true });
    throw error;
  } finally {
    bar.stop();
  }
  return bytes;
}
