/**
 * A bundle's manifest checked against its own history: the history's events folded as the document
 * service folds its stream (@docflow/document-model) must give the manifest's document exactly, and
 * each entry's `changes`, so a snapshot or a change list edited after export (a total, a status) is
 * caught although no event hash covers them.
 */
import { isDeepStrictEqual } from 'node:util';
import type { BundleManifest } from '@docflow/contracts';
import { diffFields, foldWithChanges, toDocForm } from '@docflow/document-model';

export interface FoldMismatch {
  /** `document` or `history/<rev>`. */
  entry: string;
  reason: string;
  revision: number | null;
}

const listed = (paths: string[]) =>
  `${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more` : ''}`;

/** Where the manifest disagrees with its history re-folded: the first entry's changes, the document. */
export function foldMismatches(manifest: BundleManifest): FoldMismatch[] {
  const { history } = manifest;
  const { state, changes } = foldWithChanges(
    history.map((h) => ({
      revision: h.rev,
      type: h.type,
      data: h.data,
      metadata: { timestamp: h.time, hash: h.hash },
    })),
  );
  const mismatches: FoldMismatch[] = [];
  const wrong = history.findIndex((h, i) => !isDeepStrictEqual(h.changes, json(changes[i])));
  if (wrong >= 0) {
    const rev = history[wrong]!.rev;
    mismatches.push({
      entry: `history/${rev}`,
      reason: 'its changes are not what the event changed in the document',
      revision: rev,
    });
  }
  const differ = diffFields(json(toDocForm(state)), manifest.document).map((c) => c.path);
  if (differ.length)
    mismatches.push({
      entry: 'document',
      reason: `the document is not what its history folds to: ${listed(differ)} differ`,
      revision: null,
    });
  return mismatches;
}

/** A value as a manifest's JSON holds it (no undefined members). */
const json = (value: unknown): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value));
