/**
 * `docflow backup`: a consistent copy of a data directory while its server runs. The order (see
 * layout.ts for why each step comes where it does):
 * 1. every SQLite store's snapshot is pinned, one right after the other (within a fraction of a
 *    millisecond, measured and written in the manifest): read models, event stores, key stores;
 * 2. the snapshots are copied with SQLite's online backup API (key stores first, to let them go soon);
 * 3. only then are the blobs listed and copied, each checked against its name (its SHA-256) on the
 *    way; one the target already holds is not copied again, so a backup into the same directory
 *    copies only new blobs;
 * 4. the manifest is written last: a backup cut short has none, and restore refuses it.
 * Every write acknowledged before step 1 is in the copy: its events are in the snapshots, and its
 * blobs were stored before its events. The copy is what a crash of the server at that instant would
 * have left (every commit whole), which a start recovers from: relays publish again from their
 * checkpoints, read models catch up. No lock of the server's is taken, and no store is written.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError, EXIT } from '../exit-codes';
import {
  CopyRefused,
  copyHashed,
  DIR_MODE,
  digestOf,
  FILE_MODE,
  type FileDigest,
  listFiles,
  nested,
  syncDir,
  syncTree,
} from './files';
import { blobHash, COPY_ORDER, inOrder, isNotData, kindOf, SNAPSHOT_ORDER } from './layout';
import { buildManifest, MANIFEST_FILE, type ManifestEntry, parseManifest } from './manifest';
import type { Progress } from './progress';
import { provenance } from './provenance';
import { pinSnapshots } from './sqlite-snapshot';

export interface BackupSummary {
  out: string;
  snapshotAt: string;
  snapshotWindowMs: number;
  files: number;
  bytes: number;
  blobs: { copied: number; present: number; gone: number };
  /** Files of the data directory that are not stores docflow knows (not copied). */
  skipped: string[];
}

export async function backupDataDir(
  dataDir: string,
  out: string,
  progress: Progress,
): Promise<BackupSummary> {
  const source = await sourceFiles(dataDir);
  await prepareTarget(dataDir, out);
  const entries: ManifestEntry[] = [];

  const snapshotAt = new Date().toISOString();
  const stores = inOrder(source.stores, SNAPSHOT_ORDER);
  const pinned = pinSnapshots(stores.map((path) => join(dataDir, path)));
  const snapshots = new Map(pinned.snapshots.map((s, i) => [stores[i]!, s]));
  try {
    for (const path of inOrder(stores, COPY_ORDER)) {
      await snapshots.get(path)!.copyTo(join(out, path), progress, path);
      entries.push({ path, kind: kindOf(path)!, ...(await digestOf(join(out, path))) });
    }
  } finally {
    for (const snapshot of snapshots.values()) snapshot.release();
  }

  const blobs = await copyBlobs(dataDir, out, progress);
  entries.push(...blobs.entries);
  await syncTree(
    out,
    entries.map((e) => e.path),
  );

  const manifest = buildManifest({
    docflow: provenance(),
    source: dataDir,
    snapshotAt,
    snapshotWindowMs: pinned.windowMs,
    finishedAt: new Date().toISOString(),
    files: entries,
  });
  const part = join(out, `${MANIFEST_FILE}.part`);
  await writeFile(part, `${JSON.stringify(manifest, null, 2)}\n`, { mode: FILE_MODE, flush: true });
  await rename(part, join(out, MANIFEST_FILE));
  await syncDir(out);
  return {
    out,
    snapshotAt,
    snapshotWindowMs: pinned.windowMs,
    files: entries.length,
    bytes: entries.reduce((sum, e) => sum + e.size, 0),
    blobs: blobs.counts,
    skipped: source.skipped,
  };
}

/** The data directory's SQLite stores, and the files in it that are no data docflow knows. */
async function sourceFiles(dataDir: string) {
  const isDir = await stat(dataDir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) throw new CliError(EXIT.usage, `no data directory ${dataDir}`);
  const all = await listFiles(dataDir);
  const stores = all.filter((path) => kindOf(path) !== undefined && kindOf(path) !== 'blob');
  if (stores.length === 0)
    throw new CliError(EXIT.usage, `${dataDir} holds no docflow store: not a data directory`);
  return { stores, skipped: all.filter((path) => kindOf(path) === undefined && !isNotData(path)) };
}

/**
 * The target is new, empty, or an earlier backup (whose blobs are reused). Its manifest goes first:
 * until the new one is written, the directory is a backup cut short.
 */
async function prepareTarget(dataDir: string, out: string): Promise<void> {
  if (nested(out, dataDir))
    throw new CliError(
      EXIT.usage,
      `the backup ${out} and the data directory ${dataDir} must not contain each other`,
    );
  const names = await readdir(out).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (names.length > 0) {
    const manifest = await readFile(join(out, MANIFEST_FILE), 'utf8').catch(() => undefined);
    try {
      if (manifest === undefined) throw new Error('no manifest');
      parseManifest(manifest);
    } catch {
      throw new CliError(
        EXIT.usage,
        `${out} is neither empty nor a docflow backup: back up into a new directory or an earlier backup`,
      );
    }
    await rm(join(out, MANIFEST_FILE));
  }
  await mkdir(out, { recursive: true, mode: DIR_MODE });
}

/** Copies the blobs the target lacks, each checked against its name; counts what it found. */
export async function copyBlobs(dataDir: string, out: string, progress: Progress) {
  const paths = (await listFiles(dataDir)).filter((path) => kindOf(path) === 'blob');
  const counts = { copied: 0, present: 0, gone: 0 };
  const entries: ManifestEntry[] = [];
  progress.start('blobs', paths.length, 'blobs');
  try {
    for (const [i, path] of paths.entries()) {
      const digest = await copyBlob(dataDir, out, path);
      progress.update(i + 1);
      if (digest === 'gone') counts.gone++;
      else {
        counts[digest.copied ? 'copied' : 'present']++;
        entries.push({ path, kind: 'blob', size: digest.size, sha256: digest.sha256 });
      }
    }
  } finally {
    progress.stop();
  }
  return { counts, entries };
}

/**
 * One blob. Already in the target with the same size: kept (restore checks its hash). Gone from the
 * source since it was listed: its file was discarded after the snapshots (a discarded file belongs to
 * no document), so nothing in the copy needs it.
 */
async function copyBlob(
  dataDir: string,
  out: string,
  path: string,
): Promise<(FileDigest & { copied: boolean }) | 'gone'> {
  const [from, to, sha256] = [join(dataDir, path), join(out, path), blobHash(path)];
  const sizeOf = (path: string) =>
    stat(path).then(
      (s) => s.size,
      () => undefined,
    );
  const [size, copiedSize] = [await sizeOf(from), await sizeOf(to)];
  if (size === undefined) return 'gone';
  if (copiedSize === size) return { size, sha256, copied: false };
  try {
    const digest = await copyHashed(from, to, (d) =>
      d.sha256 === sha256 ? undefined : `its content's SHA-256 is ${d.sha256}`,
    );
    return { ...digest, copied: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    if (error instanceof CopyRefused)
      throw new CliError(
        EXIT.refused,
        `the blob ${path} is damaged (${error.message}): no backup was written; ` +
          'find its document with GET /api/v2/docForm/{id}/verify',
      );
    throw error;
  }
}
