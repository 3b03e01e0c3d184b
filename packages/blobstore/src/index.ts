export type { LocalBlobStoreOptions } from './local';
export { createLocalBlobStore } from './local';
export type { MinioBlobStore, MinioBlobStoreOptions } from './minio';
export { createMinioBlobStore } from './minio';
export type { BlobStore, PutOptions, StoredBlob } from './port';
export { BlobNotFound, BlobStoreUnavailable, BlobTooLarge } from './port';
