/**
 * A file's page layouts kept in the blob store, where every recognition instance reads them (the key is
 * recorded in the file's FileRecognized). One JSON blob per file, at most MAX_LAYOUTS_BYTES: a file whose
 * layouts are larger keeps those of its first pages that fit.
 */
import { Readable } from 'node:stream';
import { type BlobStore, BlobTooLarge } from '@docflow/blobstore';
import { type PageLayout, PageLayout as PageLayoutSchema } from '@docflow/contracts';
import { z } from 'zod';

/** 8 MiB: about 200 dense pages. */
export const MAX_LAYOUTS_BYTES = 8 * 1024 * 1024;
/** Files whose layouts are kept parsed in memory (a reviewer pages through one file). */
const CACHED_FILES = 8;

const Layouts = z.array(PageLayoutSchema);

/**
 * Stores `layouts` (the first pages that fit the bound) and returns where they are, or undefined when
 * there is no page to keep.
 *
 * @example
 * const kept = await keepLayouts(blobs, result.layouts); // { key, pages }
 */
export async function keepLayouts(
  blobs: BlobStore,
  layouts: readonly PageLayout[],
): Promise<{ key: string; pages: number } | undefined> {
  const pages: string[] = [];
  let bytes = 2;
  for (const layout of layouts) {
    const json = JSON.stringify(layout);
    bytes += Buffer.byteLength(json) + 1;
    if (bytes > MAX_LAYOUTS_BYTES) break;
    pages.push(json);
  }
  if (pages.length === 0) return undefined;
  const { key } = await blobs.put(Readable.from([Buffer.from(`[${pages.join(',')}]`)]), {
    maxBytes: MAX_LAYOUTS_BYTES,
  });
  return { key, pages: pages.length };
}

const cache = new Map<string, PageLayout[]>();

/** The layouts kept at `key` (BlobNotFound when they are gone). */
export async function readLayouts(blobs: BlobStore, key: string): Promise<PageLayout[]> {
  const cached = cache.get(key);
  if (cached) return cached;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of await blobs.get(key)) {
    size += (chunk as Buffer).byteLength;
    if (size > MAX_LAYOUTS_BYTES) throw new BlobTooLarge(MAX_LAYOUTS_BYTES);
    chunks.push(chunk as Buffer);
  }
  const layouts = Layouts.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
  if (cache.size >= CACHED_FILES) cache.delete(cache.keys().next().value!);
  cache.set(key, layouts);
  return layouts;
}
