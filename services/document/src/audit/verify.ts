/**
 * Verifies a document: recomputes its hash chain from the stream and each attachment's SHA-256 from
 * the bytes the files service reads from the blob store, and names the first revision that fails.
 */
import { attachmentMismatch, digestOf, recordedAttachments, verifyChain } from '@docflow/audit';
import type { AttachmentStatus, AuditVerdict } from '@docflow/contracts';
import type { RecordedEvent } from '@docflow/eventstore';
import { chainedEvent } from './seal';

/** Reads an attachment's bytes (the files service's internal download). */
export type ReadAttachment = (fileId: string) => Promise<Response>;

const checked = (status: AttachmentStatus, reason: string | null = null) => ({ status, reason });

async function checkBytes(read: ReadAttachment, file: { id: string; sha256: string; size: number }) {
  try {
    const res = await read(file.id);
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      // 404: the files service has the file recorded but no bytes for it (or no such file at all).
      return res.status === 404
        ? checked('missing', 'its bytes are missing from the blob store')
        : checked('unreadable', `its bytes cannot be read (the files service answered ${res.status})`);
    }
    const mismatch = attachmentMismatch(file, await digestOf(res.body));
    return mismatch ? checked('changed', mismatch) : checked('valid');
  } catch {
    return checked('unreadable', 'its bytes could not be read whole');
  }
}

export async function verifyDocument(
  events: readonly RecordedEvent[],
  read: ReadAttachment,
): Promise<AuditVerdict> {
  const chain = verifyChain(events.map(chainedEvent));
  const attachments = [];
  for (const file of recordedAttachments(events)) {
    const { status, reason } = await checkBytes(read, file);
    attachments.push({
      id: file.id,
      fileName: file.fileName,
      sha256: file.sha256,
      size: file.size,
      revision: file.revision,
      valid: status === 'valid',
      status,
      reason,
    });
  }
  const badFile = attachments
    .filter((a) => !a.valid)
    .sort((a, b) => a.revision - b.revision)
    .at(0);
  if (badFile && (chain.firstBadRevision === null || badFile.revision < chain.firstBadRevision))
    return {
      ...chain,
      valid: false,
      firstBadRevision: badFile.revision,
      reason: `attachment ${badFile.id} (${badFile.fileName}): ${badFile.reason}`,
      attachments,
    };
  return { ...chain, attachments };
}
