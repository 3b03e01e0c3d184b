/**
 * `docflow restore`: a backup into an empty (or new) data directory. The manifest is checked first,
 * every file's size and SHA-256 included, and nothing is written unless all of it matches; each file
 * is hashed again while it is copied (a backup changed in between is caught too). A restore that
 * fails part way removes what it wrote. The stores come back as the snapshots were: the services'
 * relays publish again from their checkpoints and the read models catch up on start.
 */
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError, EXIT } from '../exit-codes';
import { CopyRefused, copyHashed, DIR_MODE, digestOf, syncTree } from './files';
import { BadManifest, MANIFEST_FILE, type Manifest, mismatch, parseManifest } from './manifest';
import type { Progress } from './progress';

export interface RestoreSummary {
  dataDir: string;
  snapshotAt: string;
  docflow: Manifest['docflow'];
  files: number;
  bytes: number;
}

export async function restoreBackup(backupDir: string, dataDir: string, progress: Progress) {
  const manifest = await readManifest(backupDir);
  const existed = await emptyTarget(dataDir);
  await verify(backupDir, manifest, progress);
  await mkdir(dataDir, { recursive: true, mode: DIR_MODE });
  try {
    await copyAll(backupDir, dataDir, manifest, progress);
  } catch (error) {
    // The directory was empty: what is in it now is this restore's, cut short.
    if (!existed) await rm(dataDir, { recursive: true, force: true });
    else
      for (const name of await readdir(dataDir))
        await rm(join(dataDir, name), { recursive: true, force: true });
    throw error instanceof CopyRefused ? refused(error.message) : error;
  }
  return {
    dataDir,
    snapshotAt: manifest.snapshotAt,
    docflow: manifest.docflow,
    files: manifest.files.length,
    bytes: manifest.files.reduce((sum, e) => sum + e.size, 0),
  } satisfies RestoreSummary;
}

const refused = (problem: string) =>
  new CliError(EXIT.refused, `the backup does not verify, nothing was restored: ${problem}`);

async function readManifest(backupDir: string): Promise<Manifest> {
  const text = await readFile(join(backupDir, MANIFEST_FILE), 'utf8').catch(() => undefined);
  if (text === undefined)
    throw new CliError(EXIT.refused, `${backupDir} has no ${MANIFEST_FILE}: not a backup, or one cut short`);
  try {
    return parseManifest(text);
  } catch (error) {
    if (error instanceof BadManifest) throw refused(`${MANIFEST_FILE}: ${error.message}`);
    throw error;
  }
}

/** Refuses a directory that holds anything; true when the (empty) directory exists. */
async function emptyTarget(dataDir: string): Promise<boolean> {
  const existing = await stat(dataDir).catch(() => undefined);
  if (existing && (!existing.isDirectory() || (await readdir(dataDir)).length > 0))
    throw new CliError(
      EXIT.usage,
      `${dataDir} is not an empty directory: restore only into a new or empty one (a restore never merges into data)`,
    );
  return existing !== undefined;
}

/** Every file of the manifest is there with its size and SHA-256; throws naming the first that is not. */
async function verify(backupDir: string, manifest: Manifest, progress: Progress): Promise<void> {
  progress.start('verify', manifest.files.length, 'files');
  try {
    for (const [i, entry] of manifest.files.entries()) {
      const actual = await digestOf(join(backupDir, entry.path)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') throw refused(`${entry.path}: missing`);
        throw error;
      });
      const problem = mismatch(entry, actual);
      if (problem) throw refused(problem);
      progress.update(i + 1);
    }
  } finally {
    progress.stop();
  }
}

async function copyAll(backupDir: string, dataDir: string, manifest: Manifest, progress: Progress) {
  progress.start('restore', manifest.files.length, 'files');
  try {
    for (const [i, entry] of manifest.files.entries()) {
      await copyHashed(join(backupDir, entry.path), join(dataDir, entry.path), (d) => mismatch(entry, d));
      progress.update(i + 1);
    }
  } finally {
    progress.stop();
  }
  await syncTree(
    dataDir,
    manifest.files.map((e) => e.path),
  );
}
