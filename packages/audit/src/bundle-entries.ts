/**
 * What a bundle's archive may hold, entry by entry: only regular files, at the names the manifest
 * lists, each once, one right after the other. Anything else is refused rather than skipped, since
 * `tar -x` or Python's tarfile would extract what the verifier never checked: they keep the last of
 * two entries of one name (the verifier reads the first), write through `..` and absolute paths,
 * follow links, and stop at an empty block where the verifier's reader goes on.
 */
import type { Header } from 'tar-stream';

const BLOCK = 512;

/** An entry as the archive reader gives it: its header and where that header starts. */
export interface ArchiveEntry {
  header: Header;
  offset: number;
}

/** Where the next entry's header must start once `entry` is read: right after its data, block-aligned. */
export function nextHeaderOffset(entry: ArchiveEntry): number {
  return entry.offset + BLOCK + Math.ceil(entry.header.size / BLOCK) * BLOCK;
}

/**
 * Why `entry` may not be in a bundle, or null when it may. `expected` holds the names the manifest
 * lists (the manifest itself included), `seen` those read before it, `offset` where its header must
 * start (see nextHeaderOffset).
 */
export function entryProblem(
  entry: ArchiveEntry,
  expected: ReadonlySet<string>,
  seen: ReadonlySet<string>,
  offset: number,
): string | null {
  const { name, type, linkname } = entry.header;
  const parts = name.split(/[\\/]/);
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  if (parts.includes('..')) return 'a path with a `..` component (it would be written outside the folder)';
  if (type !== 'file')
    return `a ${type ?? 'non-standard'} entry${linkname ? ` to ${linkname}` : ''}, not a regular file`;
  if (seen.has(name)) return 'a second entry of that name (tar -x would keep the last one)';
  if (!expected.has(name)) return 'an entry the manifest does not list';
  if (entry.offset !== offset)
    return 'extended, long-name or empty headers before it (a bundle has none; tar readers disagree on them)';
  return null;
}
