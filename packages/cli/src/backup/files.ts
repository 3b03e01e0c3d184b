/**
 * File chores of backup and restore: listing a tree, hashing a file, and copying one with its SHA-256
 * computed on the way, written beside the target and renamed into place once whole and on disk.
 * Directories are made 0700 and files 0600, as in a data directory.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

export interface FileDigest {
  size: number;
  sha256: string;
}

/** True when one of the directories `a` and `b` is (or is inside) the other. */
export function nested(a: string, b: string): boolean {
  const within = (inner: string, outer: string) => !relative(outer, inner).startsWith('..');
  return within(a, b) || within(b, a);
}

/** Every regular file under `root`, as a path relative to it with `/`; sorted. */
export async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/** Size and SHA-256 of the file at `path`, read as a stream. */
export async function digestOf(path: string): Promise<FileDigest> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

/** A copy whose content was not what the caller expected: nothing was put in place. */
export class CopyRefused extends Error {}

/**
 * Copies `from` to `to` (its directories made as needed), hashing on the way; `to` appears only whole
 * and synced, and only when `check` finds nothing wrong with what was read (else CopyRefused).
 */
export async function copyHashed(
  from: string,
  to: string,
  check: (digest: FileDigest) => string | undefined = () => undefined,
): Promise<FileDigest> {
  await mkdir(dirname(to), { recursive: true, mode: DIR_MODE });
  const part = `${to}.part`;
  const hash = createHash('sha256');
  let size = 0;
  const out = await open(part, 'w', FILE_MODE);
  try {
    for await (const chunk of createReadStream(from)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
      await out.write(chunk as Buffer);
    }
    await out.sync();
  } catch (error) {
    await out.close();
    await rm(part, { force: true });
    throw error;
  }
  await out.close();
  const digest = { size, sha256: hash.digest('hex') };
  const problem = check(digest);
  if (problem !== undefined) {
    await rm(part, { force: true });
    throw new CopyRefused(problem);
  }
  await rename(part, to);
  return digest;
}

/** Makes the entries of `dir` (renames into it) durable. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes the files at `paths` (relative to `root`) durable where they are: every directory from theirs up to `root`. */
export async function syncTree(root: string, paths: readonly string[]): Promise<void> {
  const dirs = new Set<string>([root]);
  for (const path of paths)
    for (let dir = dirname(path); dir !== '.'; dir = dirname(dir)) dirs.add(join(root, dir));
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) await syncDir(dir);
}
