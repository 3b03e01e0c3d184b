/** Local-directory blob store: one file per blob, named by its SHA-256 and moved into place by an atomic rename. */
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { access, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ContentDigest, isBlobKey } from './digest';
import type { BlobStore } from './port';
import { BlobNotFound, BlobStoreUnavailable, BlobTooLarge } from './port';

export interface LocalBlobStoreOptions {
  /** Root directory, created if missing: blobs live in `sha256/<aa>/<hash>`, puts in progress in `tmp/`. */
  dir: string;
}

// Blobs are the owner's only: directories 0700, files 0600.
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

// Temp files in progress in this process, so that opening a second store on the same directory
// never removes them.
const activeTemps = new Set<string>();

/**
 * Opens (and creates) a content-addressed store in `dir`; the key of a blob is its SHA-256.
 * Temp files left by a crashed process are removed here.
 *
 * @example
 * const store = await createLocalBlobStore({ dir: 'data/blobs' });
 * const { key } = await store.put(createReadStream('scan.pdf'), { maxBytes: 50 * 1024 ** 2 });
 */
export async function createLocalBlobStore(options: LocalBlobStoreOptions): Promise<BlobStore> {
  const blobsDir = join(options.dir, 'sha256');
  const tmpDir = join(options.dir, 'tmp');
  await mkdir(blobsDir, { recursive: true, mode: DIR_MODE });
  await mkdir(tmpDir, { recursive: true, mode: DIR_MODE });
  await removeStaleTemps(tmpDir);

  const blobPath = (key: string) => join(blobsDir, key.slice(0, 2), key);
  /** Fan-out directories known to exist and be durable: at most 256, so a put makes no mkdir once they are. */
  const fanOutDirs = new Set<string>();

  async function publish(tmp: string, key: string): Promise<void> {
    const target = blobPath(key);
    if (await exists(target)) {
      await rm(tmp);
      return;
    }
    const fanOut = dirname(target);
    const known = fanOutDirs.has(fanOut);
    const created = known ? undefined : await mkdir(fanOut, { recursive: true, mode: DIR_MODE });
    try {
      await rename(tmp, target);
    } catch (error) {
      // A known directory removed behind the store's back: made again.
      if (!known || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      fanOutDirs.delete(fanOut);
      return publish(tmp, key);
    }
    // Make the rename (and a new fan-out directory) durable, not only the file's bytes.
    await syncDir(fanOut);
    if (created !== undefined) await syncDir(blobsDir);
    fanOutDirs.add(fanOut);
  }

  return {
    async put(content, putOptions = {}) {
      const digest = new ContentDigest(putOptions.maxBytes);
      const tmp = join(tmpDir, `${process.pid}.${randomUUID()}`);
      activeTemps.add(tmp);
      try {
        const handle = await storage(open(tmp, 'wx', FILE_MODE));
        try {
          for await (const chunk of content) {
            digest.update(chunk);
            await storage(writeAll(handle, chunk));
          }
          await storage(handle.sync());
        } finally {
          await handle.close();
        }
        const sha256 = digest.hex();
        await storage(publish(tmp, sha256));
        return { key: sha256, size: digest.size, sha256 };
      } catch (error) {
        await rm(tmp, { force: true });
        throw error;
      } finally {
        activeTemps.delete(tmp);
      }
    },

    async get(key) {
      if (!isBlobKey(key)) throw new BlobNotFound(key);
      const handle = await storage(open(blobPath(key), 'r'), key);
      return handle.createReadStream();
    },

    async stat(key) {
      if (!isBlobKey(key)) throw new BlobNotFound(key);
      const { size } = await storage(stat(blobPath(key)), key);
      return { size };
    },

    async delete(key) {
      if (!isBlobKey(key)) return;
      await storage(rm(blobPath(key), { force: true }));
    },

    async ping() {
      await storage(access(blobsDir, constants.W_OK));
      await storage(access(tmpDir, constants.W_OK));
    },

    async close() {},
  };
}

/** Maps file-system failures to the port's errors: a missing file is BlobNotFound, the rest unavailability. */
async function storage<T>(operation: Promise<T>, key?: string): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    if (error instanceof BlobNotFound || error instanceof BlobTooLarge) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (key !== undefined && code === 'ENOENT') throw new BlobNotFound(key);
    if (typeof code === 'string') {
      throw new BlobStoreUnavailable(`local blob store: ${(error as Error).message}`, { cause: error });
    }
    throw error;
  }
}

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await handle.write(chunk, offset);
    offset += bytesWritten;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

async function syncDir(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function removeStaleTemps(tmpDir: string): Promise<void> {
  for (const name of await readdir(tmpDir)) {
    const path = join(tmpDir, name);
    if (activeTemps.has(path) || isOtherLiveProcess(Number.parseInt(name, 10))) continue;
    await rm(path, { force: true });
  }
}

/** True when `pid` names another process that is still running (its temp files may be in use). */
function isOtherLiveProcess(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
