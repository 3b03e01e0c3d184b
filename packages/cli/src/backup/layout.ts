/**
 * What a data directory holds, by path: which files are stores to copy through SQLite's online backup,
 * which are blobs to copy by content address, and which are left out (the lock, WAL and shared-memory
 * files, uploads in progress). Paths are relative, with `/`; pure, so backup, restore and the manifest
 * check all read the same rules.
 */

/**
 * - `read-model`: a service's `local.db` and any other SQLite file of its own (relay checkpoints,
 *   handled messages, read models);
 * - `event-store`: a service's `events.db`;
 * - `key-store`: identity's `keys.db` (the keys crypto-shredding depends on);
 * - `blob`: `<service>/blobs/sha256/<aa>/<sha256>`, named by its content's SHA-256.
 */
export type EntryKind = 'read-model' | 'event-store' | 'key-store' | 'blob';

export type SqliteKind = Exclude<EntryKind, 'blob'>;

const SEGMENT = '[a-z0-9][a-z0-9._-]*';
const SQLITE_FILE = new RegExp(`^${SEGMENT}/(${SEGMENT}\\.db)$`);
const BLOB_FILE = new RegExp(`^${SEGMENT}/blobs/sha256/([0-9a-f]{2})/([0-9a-f]{64})$`);
/** Left out on purpose: SQLite's WAL and shared memory (the backup API copies what they hold), the lock. */
const NOT_DATA = [/-(wal|shm|journal)$/, /(^|\/)\.lock$/, /^[^/]+\/blobs\/tmp\//];

/** The kind of the file at `path`; undefined when it is not one docflow keeps data in. */
export function kindOf(path: string): EntryKind | undefined {
  if (path.split('/').some((segment) => segment === '..' || segment === '.')) return undefined;
  const blob = BLOB_FILE.exec(path);
  if (blob) return blob[2]!.startsWith(blob[1]!) ? 'blob' : undefined;
  const sqlite = SQLITE_FILE.exec(path);
  if (!sqlite) return undefined;
  if (sqlite[1] === 'events.db') return 'event-store';
  if (sqlite[1] === 'keys.db') return 'key-store';
  return 'read-model';
}

/** True for a file a backup leaves out without a word: its contents are elsewhere or not data. */
export function isNotData(path: string): boolean {
  return NOT_DATA.some((pattern) => pattern.test(path));
}

/** The SHA-256 a blob is named by. */
export function blobHash(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The order the stores' snapshots are taken in (one right after the other, within a fraction of a
 * millisecond): read models, then event stores, then key stores.
 * - A read model's relay checkpoint and handled-message marks then never run ahead of the events of
 *   the copy: the restored relays publish again from the checkpoint (consumers drop repeats by event
 *   id) instead of skipping events the copy lacks.
 * - A person's key is made before the event sealed with it is appended, so the key store's snapshot
 *   after the event store's holds the key of every event in the copy (and an erasure that happened
 *   in between stays done).
 * Blobs are listed only after every snapshot: a blob is stored before the event that names it, and
 * is never changed, so every blob an event of the copy names is found.
 */
export const SNAPSHOT_ORDER: readonly SqliteKind[] = ['read-model', 'event-store', 'key-store'];

/**
 * The order the snapshots are then copied in: the key store first, since a writer's checkpoint of
 * it waits for the snapshot to be let go (an erasure truncates its WAL); then the others.
 */
export const COPY_ORDER: readonly SqliteKind[] = ['key-store', 'event-store', 'read-model'];

/** `paths` sorted by `order` of their kind, then by path; paths of other kinds are left out. */
export function inOrder(paths: readonly string[], order: readonly EntryKind[]): string[] {
  const rank = (path: string) => order.indexOf(kindOf(path)!);
  return paths
    .filter((path) => {
      const kind = kindOf(path);
      return kind !== undefined && order.includes(kind);
    })
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}
