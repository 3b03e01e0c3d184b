/**
 * Writes an export bundle: a tar archive whose first entry is the manifest (BUNDLE_MANIFEST) and then
 * each attachment's bytes under BUNDLE_ATTACHMENTS_DIR, streamed one after the other.
 */
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { BUNDLE_MANIFEST, type BundleManifest } from '@docflow/contracts';
import { pack } from 'tar-stream';

export interface BundleFile {
  path: string;
  size: number;
  /** The bytes, or undefined when they cannot be read (the bundle then lacks the entry). */
  open(): Promise<AsyncIterable<Uint8Array> | undefined>;
}

/** The archive as a web stream; a file whose bytes fail mid-way aborts it (a truncated tar never verifies). */
export function bundleStream(
  manifest: BundleManifest,
  files: readonly BundleFile[],
): ReadableStream<Uint8Array> {
  const archive = pack();
  const write = async () => {
    archive.entry({ name: BUNDLE_MANIFEST }, JSON.stringify(manifest, null, 2));
    for (const file of files) {
      const bytes = await file.open();
      if (!bytes) continue;
      const entry = archive.entry({ name: file.path, size: file.size });
      const failed = once(entry, 'error').then(([err]) => Promise.reject(err));
      failed.catch(() => undefined);
      for await (const chunk of bytes)
        if (!entry.write(chunk)) await Promise.race([once(entry, 'drain'), failed]);
      await Promise.race([new Promise((resolve) => entry.end(resolve)), failed]);
    }
    archive.finalize();
  };
  write().catch((err: unknown) => archive.destroy(err instanceof Error ? err : new Error(String(err))));
  return Readable.toWeb(Readable.from(archive)) as ReadableStream<Uint8Array>;
}
