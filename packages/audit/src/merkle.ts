/**
 * The Merkle root of an audit checkpoint: one leaf per document stream, `SHA-256(0x00 ‖ streamId ‖
 * "\n" ‖ revision ‖ "\n" ‖ head hash)`, leaves ordered by stream id; an inner node is
 * `SHA-256(0x01 ‖ left ‖ right)` over the hex strings; an odd last node moves up unchanged. The root of
 * no leaf is SHA-256 of nothing. Pure.
 */
import { createHash } from 'node:crypto';

export interface StreamHead {
  streamId: string;
  revision: number;
  hash: string;
}

const sha = (prefix: string, text: string) =>
  createHash('sha256').update(prefix).update(text, 'utf8').digest('hex');

export const leafHash = (head: StreamHead): string =>
  sha('\x00', `${head.streamId}\n${head.revision}\n${head.hash}`);

export function merkleRoot(heads: readonly StreamHead[]): string {
  return merkleOfNodes(
    [...heads].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0)).map(leafHash),
  );
}

/** The Merkle root over nodes (hex digests) in the order given: inner nodes and odd nodes as above. */
export function merkleOfNodes(nodes: readonly string[]): string {
  let level = [...nodes];
  if (level.length === 0) return createHash('sha256').digest('hex');
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2)
      next.push(i + 1 < level.length ? sha('\x01', level[i]! + level[i + 1]!) : level[i]!);
    level = next;
  }
  return level[0]!;
}
