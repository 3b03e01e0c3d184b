/**
 * The identity part of `docflow migrate reseal-identity` (packages/cli, which runs this file as a
 * child process: a package never links a service's code).
 *   reseal <old-data-dir> <new-data-dir> [limit]: replays identity's events into the new directory,
 *     every clear personal field sealed (replay.ts); the key store is carried over first (keys.db,
 *     rewritten by VACUUM INTO: no free page of the old file comes along), keys made in it for
 *     accounts that had none. Exit 5 when `limit` events were replayed before the end.
 *   verify <old-data-dir> <new-data-dir>: no value the old store held in clear is in any file of the
 *     new directory (clear-values.ts); exit 1, naming each file and field, when one is.
 * A summary (JSON) on stdout, progress on stderr. Exit 4 while a process holds the old directory's
 * identity service, 2 when it has no identity event store.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createPrivateFile } from '@docflow/eventstore';
import { claimServiceDir, DataDirInUse } from '@docflow/kit/engines';
import Database from 'better-sqlite3';
import { openKeyStore } from '../key-store';
import { clearValuesOf, scanForValues } from './clear-values';
import { NotThisReplay, replayIdentityEvents } from './replay';

const EXIT = { ok: 0, found: 1, usage: 2, inUse: 4, incomplete: 5 } as const;
const PROGRESS_EVERY_MS = 1000;

class Refused extends Error {}

const identityDir = (dataDir: string) => join(dataDir, 'identity');

async function main(argv: string[]): Promise<number> {
  const [command, from, to, limit] = argv;
  if (!from || !to || (command !== 'reseal' && command !== 'verify'))
    throw new Refused('usage: reseal-cli.ts reseal|verify <old-data-dir> <new-data-dir> [limit]');
  const [oldDir, newDir] = [resolve(from), resolve(to)];
  const events = join(identityDir(oldDir), 'events.db');
  if (!existsSync(events))
    throw new Refused(`no identity event store at ${events}: is ${oldDir} a data directory?`);
  const lock = claimServiceDir('identity', { DOCFLOW_DATA_DIR: oldDir });
  try {
    if (command === 'verify') {
      const scan = await scanForValues(newDir, clearValuesOf(events));
      print(scan);
      return scan.found.length === 0 ? EXIT.ok : EXIT.found;
    }
    carryOverKeys(identityDir(oldDir), identityDir(newDir));
    const keys = openKeyStore(join(identityDir(newDir), 'keys.db'));
    const progress = progressLines('identity/events.db', 'events');
    try {
      const summary = await replayIdentityEvents({
        from: events,
        to: join(identityDir(newDir), 'events.db'),
        keys,
        ...(limit ? { limit: Number(limit) } : {}),
        onProgress: progress.update,
      });
      progress.stop();
      print(summary);
      return summary.complete ? EXIT.ok : EXIT.incomplete;
    } finally {
      keys.close();
    }
  } finally {
    lock.release();
  }
}

/** The old key store into the new directory, once (a rerun keeps the keys made since). */
function carryOverKeys(oldIdentity: string, newIdentity: string): void {
  const [from, to] = [join(oldIdentity, 'keys.db'), join(newIdentity, 'keys.db')];
  if (existsSync(to) || !existsSync(from)) return;
  const part = `${to}.part`;
  rmSync(part, { force: true });
  // Made private (0600, its directory 0700) before a key is written to it; VACUUM INTO fills an empty file.
  createPrivateFile(part);
  const db = new Database(from, { readonly: true, fileMustExist: true });
  try {
    db.prepare('VACUUM INTO ?').run(part);
  } finally {
    db.close();
  }
  renameSync(part, to);
}

/** Progress on stderr: a line at most once a second, and one when the run ends. */
function progressLines(label: string, unit: string) {
  const started = performance.now();
  let [shown, done, total] = [0, 0, 0];
  const show = () => {
    shown = performance.now();
    const seconds = ((shown - started) / 1000).toFixed(1);
    process.stderr.write(`reseal: ${label} ${done}/${total} ${unit} (${seconds} s)\n`);
  };
  return {
    update(doneNow: number, totalNow: number) {
      [done, total] = [doneNow, totalNow];
      if (performance.now() - shown >= PROGRESS_EVERY_MS) show();
    },
    stop: show,
  };
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof Refused || error instanceof DataDirInUse || error instanceof NotThisReplay))
    throw error;
  console.error(error.message);
  process.exitCode = error instanceof DataDirInUse ? EXIT.inUse : EXIT.usage;
}
