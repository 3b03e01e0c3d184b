/**
 * The files service's internal HTTP API, reached by other services with the internal token: streamed
 * upload and download of one file, the discard of a file no document holds, and a create's claim of
 * its files (the duplicate check of `allowDupl=false` and the attach, one decision) and its release.
 */
import { Readable } from 'node:stream';
import { BlobNotFound, type BlobStore } from '@docflow/blobstore';
import {
  claimFilesRoute,
  discardFileRoute,
  fileStream,
  readFileRoute,
  releaseClaimRoute,
  type StoredFile,
  storeFileRoute,
} from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { newHexId } from '@docflow/kit';
import { commandMetadata, executeCommand, loadAggregate } from '@docflow/kit/eventsourcing';
import { problems, type ServiceEnv, serveInternal } from '@docflow/kit/http';
import { Hono } from 'hono';
import type { AttachmentIndex } from './attachment-index';
import type { BlobHolders } from './blob-holders';
import { DUPLICATE_CONTENT, decideStore } from './businessLogic';
import { contentDisposition } from './content-disposition';
import type { DiscardFile } from './discard';
import { type FileStored, fileAggregate } from './file';
import { storeBody } from './upload-body';
import { FILE_NAME_HEADER, parseContentType, parseFileName } from './upload-headers';

export interface FilesApiDeps {
  store: EventStore;
  blobs: BlobStore;
  index: AttachmentIndex;
  holders: BlobHolders;
  discard: DiscardFile;
  maxUploadBytes: number;
}

export function filesApi(deps: FilesApiDeps): Hono<ServiceEnv> {
  const { store, blobs, index, holders, discard, maxUploadBytes } = deps;
  const app = new Hono<ServiceEnv>();

  serveInternal(app, storeFileRoute, async (c, { query: { allowDupl } }) => {
    const fileName = parseFileName(c.req.header(FILE_NAME_HEADER));
    const contentType = parseContentType(c.req.header('content-type'));
    if (Number(c.req.header('content-length')) > maxUploadBytes)
      throw problems.tooLarge(`the upload exceeds ${maxUploadBytes} bytes`);
    const blob = await storeBody(blobs, c.req.raw.body, maxUploadBytes);
    // An early answer that spares the rest of the create; the claim (/attachments) decides.
    if (!allowDupl && index.isAttached(blob.sha256)) throw problems.conflict(DUPLICATE_CONTENT);
    const { size, sha256 } = blob;
    const file: FileStored = { id: newHexId(), fileName, size, sha256, contentType, blobKey: blob.key };
    await holders.hold(blob.key, () =>
      executeCommand(
        store,
        fileStream(file.id),
        fileAggregate,
        (state) => decideStore(file, state),
        commandMetadata(c.var.principal, c.var),
      ),
    );
    const stored: StoredFile = { id: file.id, fileName, size, sha256, contentType };
    return stored;
  });

  serveInternal(app, readFileRoute, async (c, { params: { fileId: id } }) => {
    const { state } = await loadAggregate(store, fileStream(id), fileAggregate);
    if (!state.stored || state.discarded) throw problems.notFound('no such file');
    const headers = {
      'content-type': 'application/octet-stream',
      'content-length': String(state.stored.size),
      'content-disposition': contentDisposition(state.stored.fileName),
      'x-content-type-options': 'nosniff',
    };
    // Hono answers HEAD with this GET route and drops the body: a blob opened for it would never be read.
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    const content = await blobs.get(state.stored.blobKey).catch((err: unknown) => {
      // A recorded file whose bytes are gone (the blob store lost or lost track of them): a 404 that
      // says so, for the caller to name the file (`/verify` reports it missing); not a failure of ours.
      if (!(err instanceof BlobNotFound)) throw err;
      c.var.log.warn({ fileId: id }, 'a stored file has no blob');
      throw problems.notFound("the file's content is missing from the blob store");
    });
    return c.body(Readable.toWeb(content) as ReadableStream<Uint8Array>, 200, headers);
  });

  // The document service discards the files it stored for a create that was then rejected.
  serveInternal(app, discardFileRoute, async (c, { params: { fileId } }) => {
    await discard(fileId, 'rejected', commandMetadata(c.var.principal, c.var));
  });

  // A create claims its files for its new document just before it appends DocumentCreated: 409 when
  // allowDupl=false and a live document holds the content of one of them.
  serveInternal(app, claimFilesRoute, (_c, { body: { docId, files, allowDupl } }) => {
    index.claim(docId, files, allowDupl);
  });

  // A create refused after its claim gives the claim up (409 once the document exists).
  serveInternal(app, releaseClaimRoute, (_c, { params: { docId } }) => {
    index.release(docId);
  });

  return app;
}
