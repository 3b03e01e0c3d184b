/**
 * The fingerprint of a multipart create: the target and the parts as read (the JSON parts' text, each
 * file's name, type and SHA-256), so a retry that encodes the same parts with another boundary is the
 * same request. A retry's files are hashed as they stream by and kept nowhere.
 */
import { createHash } from 'node:crypto';
import type { IncomingFile, ParsedCreate } from '../documents/multipart';
import { fingerprintOf } from './middleware';

export interface FileIdentity {
  fileName: string;
  contentType: string;
  sha256: string;
}

/** Reads a file part to its end for its hash alone. */
export async function hashFile(file: IncomingFile): Promise<FileIdentity> {
  const hash = createHash('sha256');
  for await (const chunk of file.stream) hash.update(chunk as Buffer);
  return { fileName: file.fileName, contentType: file.contentType, sha256: hash.digest('hex') };
}

export function createFingerprint(request: Request, parts: ParsedCreate<FileIdentity>): string {
  const url = new URL(request.url);
  return fingerprintOf([
    request.method,
    url.pathname + url.search,
    parts.docForm ?? null,
    parts.docResponse ?? null,
    parts.files.map((f) => [f.fileName, f.contentType, f.sha256]),
  ]);
}
