/**
 * Where the replay's time goes (issue 14: replay ≥ 70% of raw): CPU time of one catch-up over
 * REPLAY_EVENTS events, three ways on the same file in the same process: the raw batched SELECT the
 * adapter is built on (rows not parsed: bench/eventstore.ts's reference), the same SELECT with
 * `data` and `metadata` parsed (what any consumer of an event needs), and the adapter's catch-up
 * `subscribeAll`. ROUNDS rounds, medians. Bounded by counts.
 * `pnpm exec tsx bench/replay-floor.ts`
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteEventStore, SQLITE_EVENTS_SCHEMA } from '@docflow/eventstore';
import Database from 'better-sqlite3';
import { loadNote } from './support';

const REPLAY_EVENTS = 50_000;
const ROUNDS = 5;
const BATCH = 500;

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function seed(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(SQLITE_EVENTS_SCHEMA);
  const insert = db.prepare(
    `INSERT INTO events (stream_id, revision, id, type, version, data, metadata, recorded_at)
     VALUES (?, 1, ?, 'DocumentCreated', 1, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < REPLAY_EVENTS; i++) {
      const data = {
        formName: 'memo',
        author: 'usr-0123456789abcdef',
        valuesByTags: { subject: `Budget ${i}`, body: 'x'.repeat(300) },
        tags: ['finance', 'bench'],
        files: [{ fileId: `fil-${i}`, name: 'plan.pdf', size: 10_240, sha256: 'a'.repeat(64) }],
      };
      const metadata = {
        correlationId: randomUUID(),
        actor: 'usr-0123456789abcdef',
        timestamp: new Date().toISOString(),
      };
      insert.run(
        `docForm-s${i}`,
        randomUUID(),
        JSON.stringify(data),
        JSON.stringify(metadata),
        new Date().toISOString(),
      );
    }
  })();
  db.close();
}

function rawScan(file: string, parse: boolean): number {
  const db = new Database(file);
  const readAfter = db.prepare('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?').raw();
  const started = cpuMs();
  let cursor = 0;
  for (
    let rows = readAfter.all(cursor, BATCH) as unknown[][];
    rows.length;
    rows = readAfter.all(cursor, BATCH) as unknown[][]
  ) {
    if (parse)
      for (const row of rows) {
        JSON.parse(row[6] as string);
        JSON.parse(row[7] as string);
      }
    cursor = rows[rows.length - 1]![0] as number;
  }
  const spent = cpuMs() - started;
  db.close();
  return spent;
}

async function adapterScan(file: string): Promise<number> {
  const store = createSqliteEventStore({ file });
  const head = await store.headPosition();
  const started = cpuMs();
  await new Promise<void>((resolve) => {
    const subscription = store.subscribeAll({}, async (event) => {
      if (event.position === head) void subscription.stop().then(resolve);
    });
  });
  const spent = cpuMs() - started;
  await store.close();
  return spent;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const dir = mkdtempSync(join(tmpdir(), 'docflow-bench-replay-'));
try {
  const file = join(dir, 'replay.db');
  seed(file);
  const raw: number[] = [];
  const parsed: number[] = [];
  const adapter: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    raw.push(rawScan(file, false));
    parsed.push(rawScan(file, true));
    adapter.push(await adapterScan(file));
  }
  const [r, p, a] = [median(raw), median(parsed), median(adapter)];
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  console.log(`replay of ${REPLAY_EVENTS} events, CPU ms (median of ${ROUNDS}); ${loadNote()}`);
  console.log(`raw SELECT, rows not parsed: ${r.toFixed(0)} ms`);
  console.log(`raw SELECT + JSON.parse of data and metadata: ${p.toFixed(0)} ms`);
  console.log(`adapter subscribeAll: ${a.toFixed(0)} ms`);
  console.log(
    `raw / adapter: ${pct(r / a)}; raw with parsing / adapter: ${pct(p / a)}; parsing alone: ${pct((p - r) / a)} of the adapter's CPU`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
