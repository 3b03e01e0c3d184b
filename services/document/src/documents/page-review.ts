/**
 * A recognised page of an attachment, for checking recognition beside it (issues 33, 34): its layout and
 * its image, answered by the recognition service once the caller is known to read the document and
 * download the file (as the download route checks), so a stranger gets the same 404 as for the file.
 */
import { recognizedPageImageRoute, recognizedPageLayoutRoute } from '@docflow/contracts';
import { forCaller, internalClient, problems, type ServiceClient, type ServiceEnv } from '@docflow/kit/http';
import { type Context, Hono } from 'hono';
import { canDownload } from './access';
import type { DocReader } from './readable';

export interface PageReviewDeps {
  recognition: ServiceClient;
  internalToken: string;
  reader: DocReader;
}

export function pageReviewApi(deps: PageReviewDeps): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>();
  const recognition = (c: Context<ServiceEnv>) =>
    forCaller(internalClient(deps.recognition, deps.internalToken), {
      principal: c.var.principal,
      ids: c.var,
    });

  /** The recognition service's path parameters of the page asked for, once the caller may see it. */
  async function page(c: Context<ServiceEnv>) {
    const doc = await deps.reader.readableDoc(c, c.req.param('id')!);
    const fileId = c.req.param('fileId')!;
    if (!canDownload(doc, fileId)) throw problems.notFound('no such file on this document');
    return { docId: doc.id, fileId, pageIdx: c.req.param('pageIdx')! };
  }

  app.get('/api/v2/docForm/:id/file/:fileId/page/:pageIdx/layout', async (c) =>
    c.json(await recognition(c).call(recognizedPageLayoutRoute, { params: await page(c) })),
  );

  app.get('/api/v2/docForm/:id/file/:fileId/page/:pageIdx/image', async (c) => {
    const res = await recognition(c).call(recognizedPageImageRoute, { params: await page(c) });
    const headers = new Headers();
    for (const name of ['content-type', 'cache-control', 'x-content-type-options']) {
      const value = res.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    return new Response(res.body, { status: 200, headers });
  });

  return app;
}
