/**
 * Verifies an export bundle with nothing but the bundle: the archive's entries (regular files the
 * manifest lists, each once; see bundle-entries), the manifest's history as a hash chain, its
 * attachment list against what the chain records, each attachment's bytes against its SHA-256 and
 * size, and the document against its history re-folded. Reports the first bad entry.
 */
import { createReadStream } from 'node:fs';
import {
  BUNDLE_ATTACHMENTS_DIR,
  BUNDLE_MANIFEST,
  type BundleAttachment,
  BundleManifest,
} from '@docflow/contracts';
import { extract } from 'tar-stream';
import { attachmentMismatch, digestOf, type RecordedAttachment, recordedAttachments } from './attachments';
import { foldMismatches } from './bundle-document';
import { entryProblem, nextHeaderOffset } from './bundle-entries';
import { verifyChain } from './chain';

export interface BundleVerdict {
  valid: boolean;
  documentId: string | null;
  revisions: number;
  head: string | null;
  firstBadRevision: number | null;
  /**
   * The first bad entry: `history/<rev>`, `attachments/<id>`, `document`, `bundle` (the archive as a
   * whole), or the name of an archive entry that may not be there (then checked before anything else).
   */
  firstBadEntry: string | null;
  reason: string | null;
}

const bad = (firstBadEntry: string, reason: string, firstBadRevision: number | null = null) => ({
  valid: false,
  firstBadEntry,
  reason,
  firstBadRevision,
});

export async function verifyBundle(path: string): Promise<BundleVerdict> {
  let manifest: BundleManifest | undefined;
  let problem: ReturnType<typeof bad> | undefined;
  const found = new Map<string, { sha256: string; size: number }>();
  let expected = new Set([BUNDLE_MANIFEST]);
  const seen = new Set<string>();
  let offset = 0;
  for await (const entry of createReadStream(path).pipe(extract())) {
    const name = entry.header.name;
    const why =
      manifest || name === BUNDLE_MANIFEST
        ? entryProblem(entry, expected, seen, offset)
        : `the first entry must be ${BUNDLE_MANIFEST}`;
    if (why) {
      problem = bad(name, `entry ${JSON.stringify(name)}: ${why}`);
      entry.resume();
      break;
    }
    seen.add(name);
    offset = nextHeaderOffset(entry);
    if (!manifest) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry as AsyncIterable<Buffer>) chunks.push(chunk);
      const parsed = BundleManifest.safeParse(safeJson(Buffer.concat(chunks).toString('utf8')));
      if (!parsed.success) {
        problem = bad(BUNDLE_MANIFEST, `not a bundle manifest: ${parsed.error.issues[0]?.message}`);
        break;
      }
      manifest = parsed.data;
      expected = new Set([BUNDLE_MANIFEST, ...manifest.attachments.map((a) => a.path)]);
    } else {
      found.set(name, await digestOf(entry as AsyncIterable<Buffer>));
    }
  }
  const id = typeof manifest?.document._id === 'string' ? manifest.document._id : null;
  const summary = {
    documentId: id,
    revisions: manifest?.history.length ?? 0,
    head: manifest?.history.at(-1)?.hash ?? null,
  };
  if (problem || !manifest) return { ...summary, ...(problem ?? bad('bundle', 'the archive is empty')) };
  return { ...summary, ...firstProblem(manifest, found) };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

type Problem = Omit<BundleVerdict, 'documentId' | 'revisions' | 'head'>;

function firstProblem(
  manifest: BundleManifest,
  found: Map<string, { sha256: string; size: number }>,
): Problem {
  const events = manifest.history.map((h) => ({
    revision: h.rev,
    type: h.type,
    data: h.data,
    time: h.time,
    actor: h.actor,
    runAs: h.runAs,
    correlationId: h.correlationId,
    causationId: h.causationId,
    hash: h.hash ?? undefined,
    prevHash: h.prevHash ?? undefined,
  }));
  const chain = verifyChain(events);
  const problems: Problem[] = [];
  if (!chain.valid)
    problems.push(bad(`history/${chain.firstBadRevision}`, chain.reason ?? '', chain.firstBadRevision));
  const recorded = recordedAttachments(events);
  const listed = new Map<string, BundleAttachment>();
  for (const a of manifest.attachments) {
    const where = `${BUNDLE_ATTACHMENTS_DIR}${a.id}`;
    if (listed.has(a.id)) problems.push(bad(where, 'the manifest lists it twice'));
    else if (!recorded.some((r) => r.id === a.id))
      problems.push(bad(where, 'the manifest lists it, the history does not record it'));
    listed.set(a.id, a);
  }
  for (const file of recorded) {
    const where = `${BUNDLE_ATTACHMENTS_DIR}${file.id}`;
    const entry = listed.get(file.id);
    const reason = !entry
      ? 'the history records it, the manifest does not list it'
      : (listedMismatch(entry, file, where) ??
        (found.has(entry.path)
          ? attachmentMismatch(file, found.get(entry.path)!)
          : 'the bundle lacks its bytes'));
    if (reason) problems.push(bad(where, reason, file.revision));
  }
  for (const m of foldMismatches(manifest)) problems.push(bad(m.entry, m.reason, m.revision));
  // The earliest revision first; among equals, the history before the attachments before the document.
  const first = problems.sort(
    (a, b) => (a.firstBadRevision ?? Infinity) - (b.firstBadRevision ?? Infinity),
  )[0];
  return first ?? { valid: true, firstBadRevision: null, firstBadEntry: null, reason: null };
}

const LISTED_AS_RECORDED = ['sha256', 'size', 'fileName', 'contentType', 'revision'] as const;

function listedMismatch(
  listed: BundleAttachment,
  recorded: RecordedAttachment,
  where: string,
): string | null {
  if (listed.path !== where) return `the manifest lists it at ${JSON.stringify(listed.path)}, not ${where}`;
  const differ = LISTED_AS_RECORDED.filter((field) => listed[field] !== recorded[field]);
  return differ.length ? `the manifest lists another ${differ.join(', ')} than the history records` : null;
}
