/**
 * The recognition service's internal routes for checking recognition beside the page (issues 33, 34):
 * a recognised page's layout and its image. The document service calls them once it has checked that
 * the caller may download the file; here only recognised files and their pages are known.
 */
import { Readable } from 'node:stream';
import { BlobNotFound, type BlobStore } from '@docflow/blobstore';
import { recognitionStream, recognizedPageImageRoute, recognizedPageLayoutRoute } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { loadAggregate } from '@docflow/kit/eventsourcing';
import {
  forCaller,
  internalClient,
  problems,
  type ServiceClient,
  type ServiceEnv,
  serveInternal,
} from '@docflow/kit/http';
import { Hono } from 'hono';
import { readLayouts } from './layout-store';
import type { PageImage } from './page-images';
import { type RecognizedFile, resultsAggregate } from './results';

export interface PageApiDeps {
  store: EventStore;
  blobs: BlobStore;
  files: ServiceClient;
  internalToken: string;
  pageImage: PageImage;
}

export function pageApi(deps: PageApiDeps): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();

  /** The recognised file of a document, and the page asked for within it; 404 otherwise. */
  async function recognizedPage(
    docId: string,
    fileId: string,
    page: string,
  ): Promise<[RecognizedFile, number]> {
    const { state } = await loadAggregate(deps.store, recognitionStream(docId), resultsAggregate);
    const file = state.recognized[fileId];
    const pageIdx = Number(page);
    if (!file) throw problems.notFound('the file is not recognised (yet)');
    if (pageIdx >= file.pageCount) throw problems.notFound(`the file has ${file.pageCount} page(s)`);
    return [file, pageIdx];
  }

  serveInternal(app, recognizedPageLayoutRoute, async (_c, { params }) => {
    const [file, pageIdx] = await recognizedPage(params.docId, params.fileId, params.pageIdx);
    if (!file.layouts || pageIdx >= file.layouts.pages)
      throw problems.notFound('no layout was kept for this page');
    const layouts = await readLayouts(deps.blobs, file.layouts.key).catch((err: unknown) => {
      if (err instanceof BlobNotFound)
        throw problems.notFound("the page's layout is missing from the blob store");
      throw err;
    });
    return layouts[pageIdx]!;
  });

  serveInternal(app, recognizedPageImageRoute, async (c, { params }) => {
    const [, pageIdx] = await recognizedPage(params.docId, params.fileId, params.pageIdx);
    const files = forCaller(internalClient(deps.files, deps.internalToken), {
      principal: c.var.principal,
      ids: c.var,
    });
    const png = await deps.pageImage(params.fileId, pageIdx, files);
    return c.body(Readable.toWeb(png) as ReadableStream<Uint8Array>, 200, {
      'content-type': 'image/png',
      // The page of a recognised file never changes; the caller's right to read it is checked on each request.
      'cache-control': 'private, max-age=3600',
      'x-content-type-options': 'nosniff',
    });
  });

  return app;
}
