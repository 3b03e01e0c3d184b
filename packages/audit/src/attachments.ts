/** The attachments a document stream records (with the revision recording each), and checking their bytes. */
import { createHash } from 'node:crypto';
import { type BundleAttachment, StoredFile } from '@docflow/contracts';
import { z } from '@hono/zod-openapi';

const Files = z.object({ files: z.array(StoredFile) });

export type RecordedAttachment = Omit<BundleAttachment, 'path'>;

/** Attachments enter through DocumentCreated's `files` (their SHA-256 is covered by the chain). */
export function recordedAttachments(
  events: readonly { revision: number; type: string; data: Record<string, unknown> }[],
): RecordedAttachment[] {
  return events.flatMap((e) => {
    if (e.type !== 'DocumentCreated') return [];
    const parsed = Files.safeParse(e.data);
    return parsed.success ? parsed.data.files.map((f) => ({ ...f, revision: e.revision })) : [];
  });
}

/** SHA-256 (hex) and byte count of a stream of bytes. */
export async function digestOf(bytes: AsyncIterable<Uint8Array>): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of bytes) {
    hash.update(chunk);
    size += chunk.byteLength;
  }
  return { sha256: hash.digest('hex'), size };
}

/** Why a file's bytes are not the recorded attachment, or null when they are. */
export function attachmentMismatch(
  recorded: { sha256: string; size: number },
  found: { sha256: string; size: number },
): string | null {
  if (found.size !== recorded.size) return `its size is ${found.size} bytes, recorded ${recorded.size}`;
  if (found.sha256 !== recorded.sha256) return `its SHA-256 is ${found.sha256}, recorded ${recorded.sha256}`;
  return null;
}
