/**
 * The manifest of a backup (`manifest.json` at its top): which docflow made it, when its snapshots were
 * taken, and every file with its kind, size and SHA-256. Written last, so a backup without one is
 * incomplete. Pure: reading it checks its shape and that every path is one a data directory holds
 * (never `..` nor absolute), so a restore writes nothing outside the target directory.
 */
import { type EntryKind, kindOf } from './layout';

export const MANIFEST_FILE = 'manifest.json';
const FORMAT = 'docflow-backup';
const FORMAT_VERSION = 1;
const SHA256 = /^[0-9a-f]{64}$/;

export interface ManifestEntry {
  path: string;
  kind: EntryKind;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  formatVersion: typeof FORMAT_VERSION;
  docflow: { version: string; commit: string | null };
  /** The data directory copied. */
  source: string;
  /**
   * The backup's point: every write acknowledged before it is in the copy. The stores' snapshots were
   * taken just after it, all within `snapshotWindowMs` of each other.
   */
  snapshotAt: string;
  snapshotWindowMs: number;
  finishedAt: string;
  files: ManifestEntry[];
}

export type ManifestFields = Omit<Manifest, 'format' | 'formatVersion'>;

/** The manifest of `fields`, its files in path order. */
export function buildManifest(fields: ManifestFields): Manifest {
  const files = [...fields.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { format: FORMAT, formatVersion: FORMAT_VERSION, ...fields, files };
}

/** Why a manifest cannot be used. */
export class BadManifest extends Error {}

/** Reads a manifest; throws BadManifest saying what is wrong. */
export function parseManifest(text: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BadManifest(`not JSON (${(error as Error).message})`);
  }
  const m = value as Partial<Manifest> | null;
  if (m?.format !== FORMAT) throw new BadManifest(`not a docflow backup manifest (format ${m?.format})`);
  if (m.formatVersion !== FORMAT_VERSION)
    throw new BadManifest(`format version ${m.formatVersion}; this docflow reads ${FORMAT_VERSION}`);
  if (!Array.isArray(m.files)) throw new BadManifest('no list of files');
  const seen = new Set<string>();
  for (const entry of m.files) entryProblem(entry, seen);
  return m as Manifest;
}

function entryProblem(entry: Partial<ManifestEntry>, seen: Set<string>): void {
  const path = String(entry?.path);
  const kind = typeof entry?.path === 'string' ? kindOf(entry.path) : undefined;
  if (kind === undefined) throw new BadManifest(`${path}: not a path of a data directory`);
  if (kind !== entry.kind) throw new BadManifest(`${path}: kind ${entry.kind}, but its path is a ${kind}`);
  if (!Number.isSafeInteger(entry.size) || entry.size! < 0) throw new BadManifest(`${path}: bad size`);
  if (typeof entry.sha256 !== 'string' || !SHA256.test(entry.sha256))
    throw new BadManifest(`${path}: bad sha256`);
  if (kind === 'blob' && !path.endsWith(`/${entry.sha256}`))
    throw new BadManifest(`${path}: a blob's sha256 is its name`);
  if (seen.has(path)) throw new BadManifest(`${path}: listed twice`);
  seen.add(path);
}

/** How a file differs from its entry; undefined when it matches. */
export function mismatch(entry: ManifestEntry, actual: { size: number; sha256: string }): string | undefined {
  if (actual.size !== entry.size)
    return `${entry.path}: ${actual.size} bytes, the manifest says ${entry.size}`;
  if (actual.sha256 !== entry.sha256)
    return `${entry.path}: its SHA-256 is ${actual.sha256}, the manifest says ${entry.sha256}`;
  return undefined;
}
