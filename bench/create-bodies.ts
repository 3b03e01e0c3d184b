/** The create benchmarks' request bodies: a memo with one 10 KB attachment of random bytes, multipart. */
import { randomBytes } from 'node:crypto';

export const FILE_BYTES = 10 * 1024;
export const BOUNDARY = 'docflowbench7e3f';

/** Body `i`: its own subject and file content, so the content-addressed blob store writes every one. */
export function multipartBody(i: number): Buffer {
  const docForm = JSON.stringify({
    valuesByTags: { subject: `Bench ${i}`, body: 'created by bench' },
    _tags: ['bench'],
  });
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="docForm"\r\n\r\n${docForm.padEnd(120)}\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="scan.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    randomBytes(FILE_BYTES),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}
