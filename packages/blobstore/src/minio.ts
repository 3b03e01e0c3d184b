/** MinIO / S3 blob store: objects named `sha256/<hash>`, each written whole or not at all. */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { ClientOptions } from 'minio';
import { Client, CopyDestinationOptions, CopySourceOptions } from 'minio';
import { ContentDigest, isBlobKey } from './digest';
import type { BlobStore } from './port';
import { BlobNotFound, BlobStoreUnavailable, BlobTooLarge } from './port';

export interface MinioBlobStoreOptions {
  endPoint: string;
  port: number;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  /** Created on first use (or by `ensureBucket()`) when missing. */
  bucket: string;
  /** Known up front, so the client never asks the server for it. Default `us-east-1`. */
  region?: string;
  /**
   * A request fails with BlobStoreUnavailable once its connection stays silent this long (a `get`
   * stream left unread that long errors too). Default 30 s.
   */
  timeoutMs?: number;
  /** Size of each uploaded part, the most a put holds in memory. Default 16 MiB, at least 5 MiB. */
  partBytes?: number;
  /** Objects up to this size are copied in one request, larger ones in parts of this size. Default 1 GiB. */
  copyPartBytes?: number;
}

export interface MinioBlobStore extends BlobStore {
  /** Creates the bucket if it does not exist yet; idempotent, and done by every operation on first use. */
  ensureBucket(): Promise<void>;
}

const MiB = 1024 * 1024;
const MIN_PART_BYTES = 5 * MiB;
const MAX_PARTS = 10_000;
const PING_TIMEOUT_MS = 2_000;
const INCOMING_PREFIX = 'incoming/';
const NOT_FOUND_CODES = new Set(['NoSuchKey', 'NotFound']);
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ETIMEDOUT',
  'NoSuchBucket',
  'ServiceUnavailable',
  'SlowDown',
  'InternalError',
  'XMinioServerNotInitialized',
  'XMinioStorageFull',
]);
// With retries disabled the client reports a 5xx answer only through this message.
const RETRYABLE_STATUS_MESSAGE = /^Request failed after \d+ retries/;

interface MultipartUpload {
  name: string;
  addPart(data: Buffer): Promise<void>;
  copyPart(from: string, start: number, end: number): Promise<void>;
  complete(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * A blob store on a MinIO (or any S3) bucket. A put streams the content in parts of `partBytes`
 * while hashing it. A blob that fits in one part is uploaded once its hash is known, straight to
 * `sha256/<hash>`. A larger one goes to a multipart upload under `incoming/<uuid>` (invisible until
 * completed), is then copied server-side to `sha256/<hash>` and the temporary removed; a failed put
 * aborts the upload. A bucket rule expires what a crash leaves under `incoming/`.
 *
 * @example
 * const store = createMinioBlobStore({ endPoint: '127.0.0.1', port: 9000, useSSL: false,
 *   accessKey, secretKey, bucket: 'docflow-files' });
 * await store.ensureBucket();
 */
export function createMinioBlobStore(options: MinioBlobStoreOptions): MinioBlobStore {
  const { bucket } = options;
  const region = options.region ?? 'us-east-1';
  const timeoutMs = options.timeoutMs ?? 30_000;
  const partBytes = options.partBytes ?? 16 * MiB;
  const copyPartBytes = options.copyPartBytes ?? 1024 * MiB;
  if (partBytes < MIN_PART_BYTES || copyPartBytes < MIN_PART_BYTES) {
    throw new RangeError(`partBytes and copyPartBytes must be at least ${MIN_PART_BYTES}`);
  }
  const agent = options.useSSL ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const client = new Client({
    endPoint: options.endPoint,
    port: options.port,
    useSSL: options.useSSL,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    region,
    transportAgent: agent,
    transport: silenceTimeoutTransport(options.useSSL, timeoutMs),
    retryOptions: { disableRetry: true },
  });
  const where = `MinIO at ${options.endPoint}:${options.port}, bucket ${bucket}`;
  let bucketReady: Promise<void> | undefined;

  async function s3<T>(operation: Promise<T>, key?: string): Promise<T> {
    try {
      return await operation;
    } catch (error) {
      if (
        error instanceof BlobNotFound ||
        error instanceof BlobTooLarge ||
        error instanceof BlobStoreUnavailable
      ) {
        throw error;
      }
      const code = String((error as { code?: unknown }).code);
      const message = error instanceof Error ? error.message : String(error);
      if (key !== undefined && NOT_FOUND_CODES.has(code)) throw new BlobNotFound(key);
      if (UNAVAILABLE_CODES.has(code) || RETRYABLE_STATUS_MESSAGE.test(message)) {
        if (code === 'NoSuchBucket') bucketReady = undefined;
        throw new BlobStoreUnavailable(`${where}: ${message || code}`, { cause: error });
      }
      throw error;
    }
  }

  async function createBucket(): Promise<void> {
    if (await s3(client.bucketExists(bucket))) return;
    try {
      await s3(client.makeBucket(bucket, region));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'BucketAlreadyOwnedByYou' || code === 'BucketAlreadyExists') return;
      throw error;
    }
    await s3(
      client.setBucketLifecycle(bucket, {
        Rule: [
          {
            ID: 'expire-incoming',
            Status: 'Enabled',
            Filter: { Prefix: INCOMING_PREFIX },
            Expiration: { Days: 1 },
          },
        ],
      }),
    );
  }

  function ensureBucket(): Promise<void> {
    bucketReady ??= createBucket().catch((error: unknown) => {
      bucketReady = undefined;
      throw error;
    });
    return bucketReady;
  }

  async function startUpload(name: string): Promise<MultipartUpload> {
    const uploadID = await s3(client.initiateNewMultipartUpload(bucket, name, {}));
    const parts: { part: number; etag: string }[] = [];
    const upload = async (headers: Record<string, string>, payload?: Buffer) => {
      if (parts.length === MAX_PARTS) throw new BlobTooLarge(MAX_PARTS * partBytes);
      const partNumber = parts.length + 1;
      const { etag } = await s3(
        client.uploadPart({ bucketName: bucket, objectName: name, uploadID, partNumber, headers }, payload),
      );
      parts.push({ part: partNumber, etag });
    };
    return {
      name,
      addPart: (data) => upload({}, data),
      copyPart: (from, start, end) =>
        upload({
          'x-amz-copy-source': `${bucket}/${from}`,
          'x-amz-copy-source-range': `bytes=${start}-${end}`,
        }),
      complete: async () => {
        await s3(client.completeMultipartUpload(bucket, name, uploadID, parts));
      },
      abort: () => s3(client.abortMultipartUpload(bucket, name, uploadID)),
    };
  }

  async function exists(name: string): Promise<boolean> {
    try {
      await s3(client.statObject(bucket, name), name);
      return true;
    } catch (error) {
      if (error instanceof BlobNotFound) return false;
      throw error;
    }
  }

  async function copy(from: string, to: string, size: number): Promise<void> {
    if (size <= copyPartBytes) {
      await s3(
        client.copyObject(
          new CopySourceOptions({ Bucket: bucket, Object: from }),
          new CopyDestinationOptions({ Bucket: bucket, Object: to }),
        ),
      );
      return;
    }
    // CopyObject is limited to 5 GiB: larger objects are copied as ranges into a multipart upload.
    const upload = await startUpload(to);
    try {
      for (let start = 0; start < size; start += copyPartBytes) {
        await upload.copyPart(from, start, Math.min(start + copyPartBytes, size) - 1);
      }
      await upload.complete();
    } catch (error) {
      await upload.abort().catch(() => {});
      throw error;
    }
  }

  return {
    ensureBucket,

    async put(content, putOptions = {}) {
      await ensureBucket();
      const digest = new ContentDigest(putOptions.maxBytes);
      const part = Buffer.allocUnsafe(partBytes);
      let filled = 0;
      let upload: MultipartUpload | undefined;
      let completed = false;
      try {
        for await (const chunk of content) {
          digest.update(chunk);
          for (let offset = 0; offset < chunk.byteLength; ) {
            // A full part is sent only once more data arrives, so a blob of one part needs no upload.
            if (filled === partBytes) {
              upload ??= await startUpload(`${INCOMING_PREFIX}${randomUUID()}`);
              await upload.addPart(part);
              filled = 0;
            }
            const n = Math.min(partBytes - filled, chunk.byteLength - offset);
            part.set(chunk.subarray(offset, offset + n), filled);
            filled += n;
            offset += n;
          }
        }
        const sha256 = digest.hex();
        const name = objectName(sha256);
        if (upload === undefined) {
          await s3(client.putObject(bucket, name, part.subarray(0, filled)));
        } else {
          await upload.addPart(part.subarray(0, filled));
          await upload.complete();
          completed = true;
          if (!(await exists(name))) await copy(upload.name, name, digest.size);
          await client.removeObject(bucket, upload.name).catch(() => {});
        }
        return { key: sha256, size: digest.size, sha256 };
      } catch (error) {
        if (upload !== undefined) {
          // Best effort: the put's own error matters more, and the bucket rule expires leftovers.
          await (completed ? client.removeObject(bucket, upload.name) : upload.abort()).catch(() => {});
        }
        throw error;
      }
    },

    async get(key) {
      if (!isBlobKey(key)) throw new BlobNotFound(key);
      await ensureBucket();
      return s3(client.getObject(bucket, objectName(key)), key);
    },

    async stat(key) {
      if (!isBlobKey(key)) throw new BlobNotFound(key);
      await ensureBucket();
      const { size } = await s3(client.statObject(bucket, objectName(key)), key);
      return { size };
    },

    async delete(key) {
      if (!isBlobKey(key)) return;
      await ensureBucket();
      await s3(client.removeObject(bucket, objectName(key)));
    },

    async ping() {
      const pingTimeoutMs = Math.min(timeoutMs, PING_TIMEOUT_MS);
      try {
        const found = await withDeadline(s3(client.bucketExists(bucket)), pingTimeoutMs);
        if (!found) {
          bucketReady = undefined;
          await withDeadline(ensureBucket(), pingTimeoutMs);
        }
      } catch (error) {
        if (error instanceof BlobStoreUnavailable) throw error;
        throw new BlobStoreUnavailable(`${where}: ${(error as Error).message}`, { cause: error });
      }
    },

    async close() {
      agent.destroy();
    },
  };
}

function objectName(key: string): string {
  return `sha256/${key}`;
}

/** Node's request `timeout` only emits an event: this transport turns it into a failed request. */
function silenceTimeoutTransport(
  useSSL: boolean,
  timeoutMs: number,
): NonNullable<ClientOptions['transport']> {
  const base = useSSL ? https : http;
  const request = (options: http.RequestOptions, callback?: (response: http.IncomingMessage) => void) => {
    const req = base.request({ ...options, timeout: timeoutMs }, callback);
    req.on('timeout', () => {
      req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
    });
    return req;
  };
  return { request: request as typeof http.request };
}

async function withDeadline<T>(operation: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BlobStoreUnavailable(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([operation, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
