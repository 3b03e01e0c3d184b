/**
 * The document a bundle's manifest shows, checked against its history: the history's events folded
 * as the document service folds its stream (@docflow/document-model) must give that document exactly,
 * so a snapshot edited after export (a total, a status) is caught although no event hash covers it.
 */
import type { BundleManifest } from '@docflow/contracts';
import { diffFields, evolveRecorded, initialDoc, toDocForm } from '@docflow/document-model';

/** The document as the manifest's history folds it, in the JSON a manifest holds. */
export function foldedDocument(history: BundleManifest['history']): Record<string, unknown> {
  const state = history.reduce(
    (s, h) =>
      evolveRecorded(s, {
        revision: h.rev,
        type: h.type,
        data: h.data,
        metadata: { timestamp: h.time, hash: h.hash },
      }) ?? s,
    initialDoc,
  );
  return JSON.parse(JSON.stringify(toDocForm(state)));
}

/** Why the manifest's document is not what its history folds to, or null when it is. */
export function documentMismatch(manifest: BundleManifest): string | null {
  const changes = diffFields(foldedDocument(manifest.history), manifest.document);
  if (changes.length === 0) return null;
  const paths = changes.map((c) => c.path);
  const more = paths.length > 3 ? ` and ${paths.length - 3} more` : '';
  return `the document is not what its history folds to: ${paths.slice(0, 3).join(', ')}${more} differ`;
}
