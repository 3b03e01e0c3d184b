import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describeEventStoreContract } from './conformance';
import { type RecordedEvent, StoreUnavailable } from './port';
import { createSqliteEventStore } from './sqlite';

const FIXTURE = fileURLToPath(new URL('./fixtures/append-one.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

describeEventStoreContract('sqlite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'docflow-eventstore-'));
  const file = join(dir, 'events.db');
  const store = createSqliteEventStore({ file });
  // Another connection to the same file stands for another writer or an operator.
  const other = new Database(file);
  other.pragma('busy_timeout = 5000');
  return {
    store,
    backdoor: {
      async appendForeign(streamId) {
        other
          .prepare(
            `INSERT INTO events (stream_id, revision, id, type, version, data, metadata, recorded_at)
             SELECT ?, COALESCE(MAX(revision), 0) + 1, ?, 'Foreign', 1, 'not json', '{}', ?
             FROM events WHERE stream_id = ?`,
          )
          .run(streamId, randomUUID(), new Date().toISOString(), streamId);
      },
      async truncateBefore(streamId, revision) {
        other.prepare('DELETE FROM events WHERE stream_id = ? AND revision < ?').run(streamId, revision);
      },
      async deleteStream(streamId) {
        other.prepare('DELETE FROM events WHERE stream_id = ?').run(streamId);
      },
      // SQLite has one writer at a time: a position is drawn and committed together.
      async beginAppend(streamId, event) {
        return { commit: async () => void (await store.append(streamId, [event], 0)) };
      },
    },
    cleanup: async () => {
      other.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('sqlite event store file', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docflow-eventstore-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates the file, its -wal and -shm 0600 and its directory 0700 (they hold key hashes)', async () => {
    const umask = process.umask(0o022); // the usual umask: only the store may make them private
    const folder = join(dir, 'private', 'identity');
    const store = createSqliteEventStore({ file: join(folder, 'events.db') });
    try {
      const metadata = { correlationId: 'c', timestamp: new Date().toISOString() };
      await store.append('account-1', [{ id: randomUUID(), type: 'T', version: 1, data: {}, metadata }], 0);
      const names = (await readdir(folder)).sort();
      assert.deepEqual(names, ['events.db', 'events.db-shm', 'events.db-wal']);
      const modes = async (paths: string[]) =>
        Promise.all(paths.map(async (p) => [p, ((await stat(p)).mode & 0o777).toString(8)]));
      assert.deepEqual(
        await modes(names.map((n) => join(folder, n))),
        names.map((n) => [join(folder, n), '600']),
      );
      assert.deepEqual(await modes([folder, join(dir, 'private')]), [
        [folder, '700'],
        [join(dir, 'private'), '700'],
      ]);
    } finally {
      process.umask(umask);
      await store.close();
    }
  });

  it('keeps an acknowledged append when the writer is killed with SIGKILL right after', async () => {
    const file = join(dir, 'durability.db');
    const eventId = randomUUID();
    const child = runChild(file, 'docForm-durable', eventId, 'hold');

    const ack = await waitForAck(child);
    child.kill('SIGKILL');
    const [, signal] = await exited(child);
    assert.equal(signal, 'SIGKILL');

    const store = createSqliteEventStore({ file });
    try {
      const events = await store.readStream('docForm-durable');
      assert.deepEqual(
        events.map((event) => [event.id, event.revision, event.position]),
        [[eventId, 1, ack]],
      );
    } finally {
      await store.close();
    }
  });

  it('lets a subscription see events that another process appends (poll fallback)', async () => {
    const file = join(dir, 'shared.db');
    const store = createSqliteEventStore({ file, pollIntervalMs: 100 });
    const seen: RecordedEvent[] = [];
    const subscription = store.subscribeAll({ streamPrefixes: ['file-'] }, async (event) => {
      seen.push(event);
    });
    try {
      await store.append('file-local', [event()], 0);
      const eventId = randomUUID();
      const child = runChild(file, 'file-remote', eventId, 'exit');
      await waitForAck(child);
      const [code] = await exited(child);
      assert.equal(code, 0);

      const deadline = Date.now() + 5_000;
      while (seen.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(
        seen.map((e) => e.streamId),
        ['file-local', 'file-remote'],
      );
      assert.equal(seen[1]!.id, eventId);
    } finally {
      await subscription.stop();
      await store.close();
    }
  });

  it('wakes an idle subscription on an append in this process without waiting for the poll', async () => {
    const file = join(dir, 'wake.db');
    const store = createSqliteEventStore({ file, pollIntervalMs: 60_000 });
    const seen: RecordedEvent[] = [];
    const subscription = store.subscribeAll({}, async (event) => {
      seen.push(event);
    });
    try {
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      await store.append('workflow-1', [event()], 0);
      while (seen.length === 0 && Date.now() - started < 2_000) await new Promise((r) => setTimeout(r, 5));
      assert.equal(seen.length, 1);
    } finally {
      await subscription.stop();
      await store.close();
    }
  });

  it('leaves the file in WAL mode', async () => {
    const file = join(dir, 'wal.db');
    await createSqliteEventStore({ file }).close();
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    } finally {
      db.close();
    }
  });

  it('continues revisions and positions after reopening the file', async () => {
    const file = join(dir, 'reopen.db');
    const first = createSqliteEventStore({ file });
    const { position } = await first.append('account-1', [event(), event()], 0);
    await first.close();

    const second = createSqliteEventStore({ file });
    try {
      const next = await second.append('account-1', [event()], 2);
      assert.equal(next.revision, 3);
      assert.ok(next.position > position);
    } finally {
      await second.close();
    }
  });

  it('drains its subscriptions on close, then answers StoreUnavailable', async () => {
    const store = createSqliteEventStore({ file: join(dir, 'closed.db') });
    await store.append('form-x', [event()], 0);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let handled = 0;
    let entered = false;
    store.subscribeAll({}, async () => {
      entered = true;
      await gate;
      handled++;
    });
    while (!entered) await new Promise((r) => setTimeout(r, 5));

    let closed = false;
    const closing = store.close().then(() => {
      closed = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(closed, false, 'close() waits for the running handler');
    release();
    await closing;
    assert.equal(handled, 1);

    await assert.rejects(store.append('form-x', [event()], 1), StoreUnavailable);
    await assert.rejects(store.readStream('form-x'), StoreUnavailable);
    await assert.rejects(store.ping(), StoreUnavailable);
    assert.throws(() => store.subscribeAll({}, async () => {}), StoreUnavailable);
  });
});

function event() {
  return {
    id: randomUUID(),
    type: 'Noted',
    version: 1,
    data: {},
    metadata: { correlationId: randomUUID(), timestamp: new Date().toISOString() },
  };
}

function runChild(file: string, streamId: string, eventId: string, mode: 'exit' | 'hold'): ChildProcess {
  return spawn(process.execPath, ['--import', TSX, FIXTURE, file, streamId, eventId, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** Resolves with the acknowledged position as soon as the child prints its ACK line. */
function waitForAck(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /^ACK (\S+)$/m.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code, signal) => reject(new Error(`child exited (${code ?? signal}) before ACK`)));
    child.once('error', reject);
  });
}

function exited(child: ChildProcess): Promise<[number | null, NodeJS.Signals | null]> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve([child.exitCode, child.signalCode]);
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
}
