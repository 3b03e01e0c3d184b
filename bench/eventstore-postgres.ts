/**
 * Event store benchmark on PostgreSQL (POSTGRES_URL, from the environment or .infra/env): the
 * adapter beside raw `pg` on the very same table (postgresEventsSchema), in schemas of their own that
 * are dropped afterwards. Append: APPENDS single-event appends to new streams, one after another, the
 * two sides alternating in ROUNDS rounds; raw is one INSERT per event in its own (autocommit)
 * transaction. Replay: a catch-up subscribeAll from the start over REPLAY_EVENTS events until it has
 * handled the last, beside raw batched SELECTs in the same global order. Bounded by counts and MAX_MS.
 * Without POSTGRES_URL it says so and exits 0.
 */
import { randomUUID } from 'node:crypto';
import { createPostgresEventStore, type NewEvent, postgresEventsSchema } from '@docflow/eventstore';
import pg from 'pg';
import { loadEngineEnv } from './engine-env';
import { machine, writeSection } from './results';
import { alternate, fixed, loadNote, loadNow, pairList, pairMedians, pct, replayRate } from './support';

const APPENDS = 2_000;
const ROUNDS = 4;
const REPLAY_EVENTS = 20_000;
const BATCH = 500;
const MAX_MS = 30_000;

loadEngineEnv();
const url = process.env.POSTGRES_URL;
if (!url) {
  console.log('bench eventstore-postgres: no POSTGRES_URL (run `pnpm infra:up postgres`), nothing measured');
  process.exit(0);
}

function event(i: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'DocumentCreated',
    version: 1,
    data: { formName: 'memo', valuesByTags: { subject: `Budget ${i}`, body: 'x'.repeat(300) } },
    metadata: { correlationId: randomUUID(), timestamp: new Date().toISOString() },
  };
}

/** Runs `step(i)` for i < count or until MAX_MS has passed: steps per second. */
async function perSecond(count: number, step: (i: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let done = 0;
  while (done < count && performance.now() - started < MAX_MS) await step(done++);
  return done / ((performance.now() - started) / 1000);
}

const suffix = randomUUID().replaceAll('-', '').slice(0, 8);
const schemas = {
  adapter: `bench_adapter_${suffix}`,
  raw: `bench_raw_${suffix}`,
  replay: `bench_replay_${suffix}`,
};
const rawPool = new pg.Pool({ connectionString: url, max: 2 });
const started = loadNote();
try {
  for (const schema of [schemas.raw, schemas.replay]) await rawPool.query(postgresEventsSchema(schema));
  const store = createPostgresEventStore({ connectionString: url, schema: schemas.adapter });
  await store.ping();
  const events = Array.from({ length: APPENDS }, (_, i) => event(i));
  const perRound = APPENDS / ROUNDS;
  const insert = `INSERT INTO "${schemas.raw}".events (stream_id, revision, id, type, version, data, metadata)
                  VALUES ($1, 1, $2, $3, $4, $5, $6)`;
  console.log(`${APPENDS} appends each, adapter and raw pg alternating in ${ROUNDS} rounds`);
  const appendPairs = await alternate(
    ROUNDS,
    (round) =>
      perSecond(perRound, (j) => {
        const i = round * perRound + j;
        return store.append(`docForm-a${i}`, [events[i]!], 0);
      }),
    (round) =>
      perSecond(perRound, (j) => {
        const i = round * perRound + j;
        const e = events[i]!;
        return rawPool.query(insert, [
          `docForm-r${i}`,
          e.id,
          e.type,
          e.version,
          JSON.stringify(e.data),
          JSON.stringify(e.metadata),
        ]);
      }),
  );
  await store.close();

  // Replay data: REPLAY_EVENTS rows in one statement, read by both sides from the same table.
  await rawPool.query(
    `INSERT INTO "${schemas.replay}".events (stream_id, revision, id, type, version, data, metadata)
     SELECT 'docForm-s' || n, 1, gen_random_uuid(), 'DocumentCreated', 1, $2::json, $3::json
     FROM generate_series(1, $1) AS n`,
    [REPLAY_EVENTS, JSON.stringify(event(0).data), JSON.stringify(event(0).metadata)],
  );

  async function adapterReplay(): Promise<number> {
    const replayStore = createPostgresEventStore({ connectionString: url!, schema: schemas.replay });
    return replayRate(replayStore, MAX_MS);
  }

  /** The batched read the adapter is built on, without its visibility bound; rows parsed by pg. */
  async function rawReplay(): Promise<number> {
    let rows = 0;
    let cursor = ['0', '0'];
    const rawStarted = performance.now();
    for (;;) {
      const batch = await rawPool.query<{ tx: string; position: string }>(
        `SELECT tx_id::text AS tx, position, stream_id, revision, id, type, version, data, metadata, recorded_at
         FROM "${schemas.replay}".events WHERE (tx_id, position) > ($1::xid8, $2::bigint)
         ORDER BY tx_id, position LIMIT $3`,
        [cursor[0], cursor[1], BATCH],
      );
      if (batch.rows.length === 0) break;
      rows += batch.rows.length;
      const last = batch.rows[batch.rows.length - 1]!;
      cursor = [last.tx, last.position];
    }
    return rows / ((performance.now() - rawStarted) / 1000);
  }

  console.log(`replay of ${REPLAY_EVENTS} events, adapter and raw pg alternating in ${ROUNDS} rounds`);
  const replayPairs = await alternate(ROUNDS, adapterReplay, rawReplay);
  const appends = pairMedians(
    appendPairs,
    (d) => d,
    (r) => r,
  );
  const replay = pairMedians(
    replayPairs,
    (d) => d,
    (r) => r,
  );
  const body = `## Event store: PostgreSQL adapter beside raw pg

Command: \`pnpm exec tsx bench/eventstore-postgres.ts\` with POSTGRES_URL (the cluster of \`pnpm infra:up postgres\`) · ${new Date().toISOString()} · ${machine()} · ${started}, at the end ${loadNow()}
Same table definition, same server (PostgreSQL 15, fsync on, synchronous_commit on). Append: ${APPENDS} single-event appends
to new streams, one after another, alternating in ${ROUNDS} rounds of ${perRound}: the adapter (its transaction: the stream's
advisory lock, its revision, the INSERT, COMMIT) beside one autocommit INSERT with raw \`pg\`. Replay: ${REPLAY_EVENTS} events;
the adapter's catch-up \`subscribeAll\` from the start (rows decoded into events, a no-op handler awaited per event) until
it handled the last, beside raw batched SELECTs of ${BATCH} in the same (transaction id, position) order without the
visibility bound. Medians over the rounds (rounds, adapter/raw: appends/s ${pairList(
    appendPairs,
    (d) => d,
    (r) => r,
  )}; replay k events/s ${pairList(
    replayPairs,
    (d) => d / 1000,
    (r) => r / 1000,
  )}).

| measure | adapter | raw pg (reference) | ratio |
|---|---|---|---|
| appends/s | ${fixed(appends.docflow, 0)} | ${fixed(appends.reference, 0)} | ${pct(appends.ratio, 1)} |
| replayed events/s | ${fixed(replay.docflow, 0)} | ${fixed(replay.reference, 0)} | ${pct(replay.ratio, 1)} |
`;
  writeSection('eventstore-postgres', body);
  console.log(body);
} finally {
  for (const schema of Object.values(schemas))
    await rawPool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await rawPool.end();
}
