/** The blob store port with a span around each put (the streaming of one blob into the store). */
import type { BlobStore } from '@docflow/blobstore';
import { telemetryOn } from './telemetry';
import { inSpan, SERVICE_ATTRIBUTE } from './tracing';

/** @example const blobs = traceBlobStore(deps.blobs, 'files'); */
export function traceBlobStore(blobs: BlobStore, service: string): BlobStore {
  if (!telemetryOn()) return blobs;
  return {
    put: (content, options) =>
      inSpan('blobstore.put', { attributes: { [SERVICE_ATTRIBUTE]: service } }, async (span) => {
        const stored = await blobs.put(content, options);
        span.setAttribute('docflow.blob.size', stored.size);
        return stored;
      }),
    get: (key) => blobs.get(key),
    stat: (key) => blobs.stat(key),
    delete: (key) => blobs.delete(key),
    ping: () => blobs.ping(),
    close: () => blobs.close(),
  };
}
