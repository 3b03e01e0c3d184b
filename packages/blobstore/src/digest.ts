/** Shared by the adapters: SHA-256 and byte count of a blob, computed chunk by chunk while it streams. */
import { createHash } from 'node:crypto';
import { BlobTooLarge } from './port';

const KEY_PATTERN = /^[0-9a-f]{64}$/;

/** Keys are the lowercase hex SHA-256 of the content, in every adapter. */
export function isBlobKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export class ContentDigest {
  size = 0;
  readonly #hash = createHash('sha256');

  constructor(private readonly maxBytes?: number) {}

  /** Throws BlobTooLarge as soon as the running size passes `maxBytes`. */
  update(chunk: Uint8Array): void {
    this.size += chunk.byteLength;
    if (this.maxBytes !== undefined && this.size > this.maxBytes) throw new BlobTooLarge(this.maxBytes);
    this.#hash.update(chunk);
  }

  hex(): string {
    return this.#hash.digest('hex');
  }
}
