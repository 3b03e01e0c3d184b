/**
 * `docflow migrate reseal-identity <new-dir>`: a new data directory made from a stopped old one, in
 * which no identity event holds personal data in clear (events written before sealing did;
 * docs/decisions.md, "Migrations"). The old directory is only read. Steps, each one a rerun goes on
 * from:
 * 1. identity's events are replayed into the new directory, every clear personal field sealed with
 *    its account's key, the key store carried over first (identity's own code, run as a child
 *    process: services/identity/src/reseal/reseal-cli.ts); bounded by --limit;
 * 2. every other store is carried over as `docflow backup` copies it (a pinned snapshot through
 *    SQLite's online backup API; one already in the new directory is whole, and kept), and the
 *    blobs by content address (one already there is kept);
 * 3. the new directory is checked: no value the old identity store held in clear is in any of its
 *    files (exit 1 naming file and field otherwise).
 * A marker file names the old directory while the migration runs, so a rerun goes on only in a
 * directory this migration of that source began; it is removed once the check passes.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { copyBlobs } from '../backup/backup';
import { DIR_MODE, FILE_MODE, listFiles, nested } from '../backup/files';
import { COPY_ORDER, inOrder, kindOf, SNAPSHOT_ORDER } from '../backup/layout';
import type { Progress } from '../backup/progress';
import { pinSnapshots } from '../backup/sqlite-snapshot';
import { CHECKOUT } from '../checkout';
import { CliError, EXIT } from '../exit-codes';

const IDENTITY_SERVICE = join(CHECKOUT, 'services/identity');
const RESEAL_ENTRY = 'src/reseal/reseal-cli.ts';
const MARKER = '.docflow-migration';
const MIGRATION = 'reseal-identity';
/** Written by step 1 itself. */
const RESEALED = new Set(['identity/events.db', 'identity/keys.db']);

/** What identity's steps print (services/identity/src/reseal: ReplaySummary, ScanResult). */
interface IdentityReplay {
  total: number;
  resumedWith: number;
  replayed: number;
  resealed: number;
  complete: boolean;
}
interface IdentityCheck {
  files: number;
  bytes: number;
  scanned: number;
  tooShort: number;
  found: Array<{ file: string; field: string }>;
}

export interface ResealOptions {
  /** Replay at most this many identity events in this run. */
  limit?: number;
}

export async function resealIdentity(
  dataDir: string,
  out: string,
  options: ResealOptions,
  progress: Progress,
) {
  if (!existsSync(join(dataDir, 'identity', 'events.db')))
    throw new CliError(EXIT.usage, `${dataDir} has no identity/events.db: not a data directory`);
  const began = await claimTarget(dataDir, out);

  const replay = await identityStep<IdentityReplay>([
    'reseal',
    dataDir,
    out,
    ...(options.limit ? [String(options.limit)] : []),
  ]).catch(async (error) => {
    // Refused before writing (the old directory in use): the directory is left empty, as it was.
    if (began && error instanceof CliError) await rm(join(out, MARKER), { force: true });
    throw error;
  });
  if (replay.exitCode === EXIT.incomplete) return { out, complete: false, identity: replay.summary };
  const stores = await carryOverStores(dataDir, out, progress);
  const blobs = await copyBlobs(dataDir, out, progress);

  const check = await identityStep<IdentityCheck>(['verify', dataDir, out]);
  if (check.exitCode === EXIT.refused)
    throw new CliError(
      EXIT.refused,
      `personal data of the old directory is still in clear in the new one: ${check.summary.found
        .map((f) => `${f.file} (${f.field})`)
        .join(', ')}`,
    );
  await rm(join(out, MARKER));
  return { out, complete: true, identity: replay.summary, stores, blobs: blobs.counts, check: check.summary };
}

/**
 * The new directory is new, empty, or one this migration of `dataDir` began (its marker names it);
 * it is marked as this migration's before anything is written to it. True when this run began it.
 */
async function claimTarget(dataDir: string, out: string): Promise<boolean> {
  if (nested(out, dataDir))
    throw new CliError(EXIT.usage, `the new directory ${out} and ${dataDir} must not contain each other`);
  const names = await readdir(out).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const marker = JSON.stringify({ migration: MIGRATION, source: dataDir });
  if (names.length > 0) {
    const found = await readFile(join(out, MARKER), 'utf8').catch(() => undefined);
    if (found?.trim() !== marker)
      throw new CliError(
        EXIT.usage,
        `${out} is not empty, and not a ${MIGRATION} of ${dataDir} under way: give a new or empty directory`,
      );
    return false;
  }
  await mkdir(out, { recursive: true, mode: DIR_MODE });
  await writeFile(join(out, MARKER), `${marker}\n`, { mode: FILE_MODE, flush: true });
  return true;
}

/** Every store but identity's events and keys, as a backup copies it; those already copied are kept. */
async function carryOverStores(dataDir: string, out: string, progress: Progress): Promise<number> {
  const stores = (await listFiles(dataDir)).filter(
    (path) => kindOf(path) !== 'blob' && kindOf(path) !== undefined && !RESEALED.has(path),
  );
  const missing = inOrder(stores, SNAPSHOT_ORDER).filter((path) => !existsSync(join(out, path)));
  const pinned = pinSnapshots(missing.map((path) => join(dataDir, path)));
  const snapshots = new Map(pinned.snapshots.map((s, i) => [missing[i]!, s]));
  try {
    for (const path of inOrder(missing, COPY_ORDER))
      await snapshots.get(path)!.copyTo(join(out, path), progress, path);
  } finally {
    for (const snapshot of snapshots.values()) snapshot.release();
  }
  return missing.length;
}

/** Runs one step of identity's part; its progress goes to stderr, its JSON summary is returned. */
async function identityStep<T>(args: string[]): Promise<{ exitCode: number; summary: T }> {
  const child = spawn(process.execPath, ['--import', 'tsx', RESEAL_ENTRY, ...args], {
    cwd: IDENTITY_SERVICE,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  const exitCode = await new Promise<number>((done, failed) => {
    child.on('error', failed);
    child.on('close', (code) => done(code ?? EXIT.unreachable));
  });
  if (exitCode === EXIT.usage || exitCode === EXIT.dataDirInUse)
    throw new CliError(exitCode, `${args[0]}: refused (the reason above)`);
  // A step that crashed printed no summary (its stack trace is on stderr above).
  const summary = [EXIT.ok, EXIT.refused, EXIT.incomplete].includes(exitCode as 0)
    ? parsed(stdout)
    : undefined;
  if (summary === undefined) throw new Error(`the identity ${args[0]} step failed (exit ${exitCode})`);
  return { exitCode, summary: summary as T };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
