/**
 * Step 2 of a create: the multipart body read as it streams, each file stored through `files` the
 * moment it arrives (never held whole), with what identifies each file for the request's fingerprint.
 */
import type { StoredFile } from '@docflow/contracts';
import type { FileIdentity } from '../../idempotency/create-fingerprint';
import { type IncomingFile, type ParsedCreate, parseCreateMultipart } from '../multipart';
import type { CreateFiles } from './create-files';

export interface StreamedParts {
  parts: ParsedCreate<StoredFile>;
  /** Each stored file's name, type and SHA-256, in the order the files came. */
  identities: FileIdentity[];
}

/**
 * Settles only once no upload runs any more (see multipart.ts): when it rejects, `files` knows every
 * file it stored, to be given up.
 *
 * @example const { parts, identities } = await streamParts(request, files, maxCreateBytes);
 */
export async function streamParts(
  request: Request,
  files: Pick<CreateFiles, 'store'>,
  maxBodyBytes: number,
): Promise<StreamedParts> {
  const identities: FileIdentity[] = [];
  const upload = async (file: IncomingFile): Promise<StoredFile> => {
    const storedFile = await files.store(file);
    identities.push({ fileName: file.fileName, contentType: file.contentType, sha256: storedFile.sha256 });
    return storedFile;
  };
  const parts = await parseCreateMultipart(request, upload, { maxBodyBytes });
  return { parts, identities };
}
