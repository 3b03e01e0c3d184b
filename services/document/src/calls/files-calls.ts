/** The files service as the document routes use it: store, claim, release, discard and download files. */
import {
  claimFilesRoute,
  discardFileRoute,
  FILE_NAME_HEADER,
  readFileRoute,
  releaseClaimRoute,
  type StoredFile,
  storeFileRoute,
} from '@docflow/contracts';
import {
  type CallerClient,
  forCaller,
  internalClient,
  type ServiceClient,
  type ServiceEnv,
  toWebStream,
} from '@docflow/kit/http';
import type { Context } from 'hono';
import type { IncomingFile } from '../documents/multipart';

/** The files service's internal API, called as the request's principal. */
export type FilesCall = CallerClient;

/** Streams an upload to the files service; `allowDupl=false` makes it refuse a hash already attached (409). */
export async function storeFile(
  call: FilesCall,
  file: IncomingFile,
  allowDupl: boolean,
): Promise<StoredFile> {
  return call.call(storeFileRoute, {
    query: { allowDupl: allowDupl ? 'true' : 'false' },
    headers: { [FILE_NAME_HEADER]: encodeURIComponent(file.fileName), 'content-type': file.contentType },
    body: toWebStream(file.stream),
  });
}

/** Deletes stored files no document holds; returns the ids it could not delete (the sweeper will). */
export async function discardFiles(call: FilesCall, files: readonly StoredFile[]): Promise<string[]> {
  const kept: string[] = [];
  for (const file of files) {
    const res = await call.send(discardFileRoute, { params: { fileId: file.id } }).catch(() => undefined);
    if (!res?.ok) kept.push(file.id);
  }
  return kept;
}

/**
 * Claims `files` for the new document `docId`, just before its DocumentCreated is appended: the files
 * service records the attachments (its orphan sweeper never takes them) unless `allowDupl` is false and
 * a live document holds the content of one (409) — one decision there, so concurrent creates of one
 * content cannot both pass.
 */
export async function claimFiles(
  call: FilesCall,
  docId: string,
  files: readonly StoredFile[],
  allowDupl: boolean,
): Promise<void> {
  if (files.length === 0) return;
  await call.call(claimFilesRoute, {
    body: { docId, allowDupl, files: files.map((f) => ({ id: f.id, sha256: f.sha256 })) },
  });
}

/** Gives up the claim of a document that was never created, so its files can be discarded. */
export async function releaseClaim(call: FilesCall, docId: string): Promise<void> {
  await call.call(releaseClaimRoute, { params: { docId } });
}

/** The file's bytes with the headers a download answers with. */
export async function downloadFile(call: FilesCall, fileId: string): Promise<Response> {
  const res = await call.call(readFileRoute, { params: { fileId } });
  return new Response(res.body, {
    status: 200,
    headers: pickHeaders(res.headers, ['content-type', 'content-length', 'content-disposition']),
  });
}

function pickHeaders(from: Headers, names: string[]): Headers {
  const out = new Headers();
  for (const n of names) {
    const v = from.get(n);
    if (v !== null) out.set(n, v);
  }
  return out;
}

/** Calls to the files service as the request's principal. */
export function filesCallAs(files: ServiceClient, internalToken: string, c: Context<ServiceEnv>): FilesCall {
  return forCaller(internalClient(files, internalToken), { principal: c.var.principal, ids: c.var });
}

/** The bytes of a stored file as the files service reads them from the blob store (any status). */
export function readStoredFile(call: FilesCall, fileId: string): Promise<Response> {
  return call.send(readFileRoute, { params: { fileId } });
}
