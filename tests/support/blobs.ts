/** How many blobs a target's blob store holds: the local directory of embedded mode, or a MinIO bucket. */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
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
