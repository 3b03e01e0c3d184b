/** The blob store port: what every adapter (local directory, MinIO/S3) guarantees. */
import type { Readable } from 'node:stream';

export interface StoredBlob {
  /** Opaque key to read the blob back. */
  key: string;
  /** Size in bytes. */
  size: number;
  /** Lowercase hex SHA-256 of the content, computed while streaming. */
  sha256: string;
}

export interface PutOptions {
  /** Reject with BlobTooLarge (and store nothing) once the stream exceeds this many bytes. */
  maxBytes?: number;
}

export interface BlobStore {
  /**
   * Streams `content` into the store; never holds it whole in memory. The blob becomes visible
   * only once complete: a failed or aborted put leaves nothing readable behind.
   */
  put(content: Readable | AsyncIterable<Uint8Array>, options?: PutOptions): Promise<StoredBlob>;
  /** A stream of the blob's bytes; throws BlobNotFound for an unknown key. */
  get(key: string): Promise<Readable>;
  /** Size of a stored blob; throws BlobNotFound for an unknown key. */
  stat(key: string): Promise<{ size: number }>;
  delete(key: string): Promise<void>;
  /** Resolves when the engine answers; throws BlobStoreUnavailable otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class BlobNotFound extends Error {
  override readonly name = 'BlobNotFound';
  constructor(readonly key: string) {
    super(`blob ${key} not found`);
  }
}

export class BlobTooLarge extends Error {
  override readonly name = 'BlobTooLarge';
  constructor(readonly maxBytes: number) {
    super(`blob exceeds ${maxBytes} bytes`);
  }
}

export class BlobStoreUnavailable extends Error {
  override readonly name = 'BlobStoreUnavailable';
}
