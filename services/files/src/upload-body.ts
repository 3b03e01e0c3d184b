/** Streams a request body into the blob store, telling a broken upload apart from a failing store. */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { type BlobStore, BlobTooLarge, type StoredBlob } from '@docflow/blobstore';
import { ProblemError } from '@docflow/kit/http';

const uploadInterrupted = () =>
  new ProblemError(
    400,
    'upload-interrupted',
    'Upload interrupted',
    'the request body ended before it was complete',
  );

/** The whole body stored (never held in memory), or BlobTooLarge, or 400 when the body itself failed. */
export async function storeBody(
  blobs: BlobStore,
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<StoredBlob> {
  const source = body ? Readable.fromWeb(body as NodeReadableStream<Uint8Array>) : Readable.from([]);
  let bodyFailed = false;
  source.once('error', () => {
    bodyFailed = true;
  });
  try {
    return await blobs.put(source, { maxBytes });
  } catch (err) {
    if (bodyFailed && !(err instanceof BlobTooLarge)) throw uploadInterrupted();
    throw err;
  }
}
