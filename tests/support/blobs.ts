/** How many blobs a target's blob store holds: the local directory of embedded mode, or a MinIO bucket. */
import { createHash } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'minio';

/** Blobs under `<dataDir>/files/blobs/sha256` (the local blob store's layout). */
export function localBlobCount(dataDir: string): number {
  const root = join(dataDir, 'files', 'blobs', 'sha256');
  let count = 0;
  for (const fanOut of readdirSync(root)) count += readdirSync(join(root, fanOut)).length;
  return count;
}

function minioClient(env: Record<string, string>): Client {
  const [endPoint, port] = env.MINIO_ENDPOINT!.split(':');
  return new Client({
    endPoint: endPoint!,
    port: Number(port),
    useSSL: env.MINIO_USE_SSL === 'true',
    accessKey: env.MINIO_ACCESS_KEY!,
    secretKey: env.MINIO_SECRET_KEY!,
    region: 'us-east-1',
  });
}

/** Objects under `sha256/` in `env.MINIO_BUCKET` (the MinIO blob store's layout). */
export async function minioBlobCount(env: Record<string, string>): Promise<number> {
  const client = minioClient(env);
  // The files service makes its bucket at the first upload.
  if (!(await client.bucketExists(env.MINIO_BUCKET!))) return 0;
  let count = 0;
  for await (const _ of client.listObjectsV2(env.MINIO_BUCKET!, 'sha256/', true)) count++;
  return count;
}

/**
 * Objects under `sha256/` in `env.MINIO_BUCKET` whose content does not hash to their name (a
 * half-written object would): empty when every stored blob is whole.
 */
export async function minioTornBlobs(env: Record<string, string>): Promise<string[]> {
  const client = minioClient(env);
  if (!(await client.bucketExists(env.MINIO_BUCKET!))) return [];
  const torn: string[] = [];
  for await (const item of client.listObjectsV2(env.MINIO_BUCKET!, 'sha256/', true)) {
    const name = (item as { name: string }).name;
    const hash = createHash('sha256');
    for await (const chunk of await client.getObject(env.MINIO_BUCKET!, name)) hash.update(chunk as Buffer);
    if (`sha256/${hash.digest('hex')}` !== name) torn.push(name);
  }
  return torn;
}

/** How a tampering test damages a stored blob: delete it, or change one byte (same size). */
export type BlobTampering = 'remove' | 'change';

const flipFirstByte = (bytes: Buffer) => Buffer.concat([Buffer.from([bytes[0]! ^ 0xff]), bytes.subarray(1)]);

/** Damages the blob of content `sha256` in the local blob store under `dataDir`, behind the service's back. */
export function tamperLocalBlob(dataDir: string, sha256: string, how: BlobTampering): void {
  const path = join(dataDir, 'files', 'blobs', 'sha256', sha256.slice(0, 2), sha256);
  if (how === 'remove') {
    rmSync(path);
    return;
  }
  chmodSync(path, 0o600);
  writeFileSync(path, flipFirstByte(readFileSync(path)));
}

/** Damages the object of content `sha256` in `env.MINIO_BUCKET`, behind the service's back. */
export async function tamperMinioBlob(env: Record<string, string>, sha256: string, how: BlobTampering) {
  const client = minioClient(env);
  const name = `sha256/${sha256}`;
  if (how === 'remove') return client.removeObject(env.MINIO_BUCKET!, name);
  const chunks: Buffer[] = [];
  for await (const chunk of await client.getObject(env.MINIO_BUCKET!, name)) chunks.push(chunk as Buffer);
  await client.putObject(env.MINIO_BUCKET!, name, flipFirstByte(Buffer.concat(chunks)));
}
