import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { type ContractStore, describeEventStoreContract } from './conformance';
import { StoreUnavailable } from './port';
import { createPostgresEventStore } from './postgres';

/** infra/local/up.sh writes it to .infra/env; CI sets DOCFLOW_ENGINES_REQUIRED=1 beside it. */
const url = process.env.POSTGRES_URL;
const enginesRequired = process.env.DOCFLOW_ENGINES_REQUIRED === '1';
const noServerReason =
  'no PostgreSQL: POSTGRES_URL is not set (infra/local/up.sh postgres writes it to .infra/env)';

if (!url && enginesRequired) {
  describe('postgres event store', () => {
    it('has a PostgreSQL server to run against', () => {
      assert.fail(`${noServerReason}, but DOCFLOW_ENGINES_REQUIRED=1 says one was started`);
    });
  });
}

describeEventStoreContract(
  'postgres (POSTGRES_URL)',
  async () => {
    // A schema of its own per run: the suite shares the server with other runs and services.
    const schema = `contract_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const store = createPostgresEventStore({ connectionString: url!, schema });
    await store.ping(); // creates the schema and its table
    const other = new pg.Pool({ connectionString: url, max: 2 });
    return contractStore(store, other, schema);
  },
  { skip: url ? undefined : noServerReason },
);

/** The adapter under test, and another client of the same database for other writers and operators. */
function contractStore(store: ContractStore['store'], other: pg.Pool, schema: string): ContractStore {
  const table = `"${schema}".events`;
  return {
    store,
    backdoor: {
      async appendForeign(streamId) {
        await other.query(
          `INSERT INTO ${table} (stream_id, revision, id, type, version, data, metadata)
           SELECT $1, COALESCE(MAX(revision), 0) + 1, $2, 'Foreign', 1, '"not an object"', '{}'
           FROM ${table} WHERE stream_id = $1`,
          [streamId, randomUUID()],
        );
      },
      async truncateBefore(streamId, revision) {
        await other.query(`DELETE FROM ${table} WHERE stream_id = $1 AND revision < $2`, [
          streamId,
          revision,
        ]);
      },
      async deleteStream(streamId) {
        await other.query(`DELETE FROM ${table} WHERE stream_id = $1`, [streamId]);
      },
      async beginAppend(streamId, event) {
        const client = await other.connect();
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO ${table} (stream_id, revision, id, type, version, data, metadata)
           VALUES ($1, 1, $2, $3, $4, $5, $6)`,
          [
            streamId,
            event.id,
            event.type,
            event.version,
            JSON.stringify(event.data),
            JSON.stringify(event.metadata),
          ],
        );
        return {
          async commit() {
            await client.query('COMMIT');
            client.release();
          },
        };
      },
    },
    cleanup: async () => {
      await store.close();
      await other.query(`DROP SCHEMA "${schema}" CASCADE`);
      await other.end();
    },
  };
}

describe('postgres event store beside the contract', { skip: url ? undefined : noServerReason }, () => {
  const schemas = [`svc_a_${randomUUID().slice(0, 8)}`, `svc_b_${randomUUID().slice(0, 8)}`];
  let admin: pg.Pool;
  before(() => {
    admin = new pg.Pool({ connectionString: url, max: 1 });
  });
  after(async () => {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  /** Whether a connection of the store LISTENs on the schema's channel. */
  async function listening(schema: string): Promise<boolean> {
    const { rows } = await admin.query(
      "SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN %'",
      [`docflow-${schema}-listen`],
    );
    return rows.length > 0;
  }

  it('keeps the streams of two services apart in one database, a schema each', async () => {
    const [a, b] = schemas.map((schema) => createPostgresEventStore({ connectionString: url!, schema }));
    try {
      await a!.append('account-1', [event()], 0);
      await b!.append('account-1', [event(), event()], 0);
      assert.equal((await a!.readStream('account-1')).length, 1);
      assert.equal((await b!.readStream('account-1')).length, 2);
      const { rows } = await admin.query<{ nspname: string }>(
        'SELECT nspname FROM pg_namespace WHERE nspname = ANY($1) ORDER BY nspname',
        [schemas],
      );
      assert.deepEqual(
        rows.map((row) => row.nspname),
        [...schemas].sort(),
      );
    } finally {
      await a!.close();
      await b!.close();
    }
  });

  it('orders by transaction id as a number, also where it gains a digit (9 before 10)', async () => {
    const schema = schemas[0]!;
    const store = createPostgresEventStore({ connectionString: url!, schema });
    const seen: string[] = [];
    try {
      await store.ping();
      // Rows as transactions 9 and 10 would have written them (ids long past, all finished).
      for (const [txId, streamId] of [
        ['9', 'digits-a'],
        ['10', 'digits-b'],
      ] as const) {
        await admin.query(
          `INSERT INTO "${schema}".events (tx_id, stream_id, revision, id, type, version, data, metadata)
           VALUES ($1::xid8, $2, 1, $3, 'Noted', 1, '{}', '{}')`,
          [txId, streamId, randomUUID()],
        );
      }
      const subscription = store.subscribeAll({ streamPrefixes: ['digits-'] }, async (e) => {
        seen.push(e.streamId);
      });
      const deadline = Date.now() + 10_000;
      while (seen.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await subscription.stop();
      assert.deepEqual(seen, ['digits-a', 'digits-b']);
    } finally {
      await store.close();
    }
  });

  it('lets two instances of a service share its streams: no lost update, each sees the other', async () => {
    const schema = schemas[1]!;
    const [one, two] = [1, 2].map(() =>
      createPostgresEventStore({ connectionString: url!, schema, pollIntervalMs: 50 }),
    );
    const seen: string[] = [];
    const subscription = one!.subscribeAll({ streamPrefixes: ['shared-'] }, async (e) => {
      seen.push(e.id);
    });
    try {
      await one!.append('shared-1', [event()], 0);
      const contenders = [event(), event()];
      const outcomes = await Promise.allSettled([
        one!.append('shared-1', [contenders[0]!], 1),
        two!.append('shared-1', [contenders[1]!], 1),
      ]);
      assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected']);
      const winner = contenders[outcomes.findIndex((o) => o.status === 'fulfilled')]!;
      const fromTwo = event();
      await two!.append('shared-2', [fromTwo], 0);
      const deadline = Date.now() + 10_000;
      while (seen.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(seen.slice(1), [winner.id, fromTwo.id]);
      assert.deepEqual(
        (await two!.readStream('shared-1')).map((e) => e.revision),
        [1, 2],
      );
    } finally {
      await subscription.stop();
      await one!.close();
      await two!.close();
    }
  });

  it("wakes an idle subscription on another instance's append without waiting for the poll", async () => {
    const schema = schemas[1]!;
    const subscriber = createPostgresEventStore({ connectionString: url!, schema, pollIntervalMs: 60_000 });
    const appender = createPostgresEventStore({ connectionString: url!, schema });
    const seen: string[] = [];
    const subscription = subscriber.subscribeAll({ streamPrefixes: ['notified-'] }, async (e) => {
      seen.push(e.id);
    });
    try {
      // Parked once (nothing there yet), and listening: the poll would come only after 60 s.
      const listenBy = Date.now() + 10_000;
      while (!(await listening(schema)) && Date.now() < listenBy) await new Promise((r) => setTimeout(r, 20));
      const appended = event();
      await appender.append('notified-1', [appended], 0);
      const deadline = Date.now() + 10_000;
      while (seen.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(seen, [appended.id]);
    } finally {
      await subscription.stop();
      await subscriber.close();
      await appender.close();
    }
  });

  it('refuses a schema name that is not a plain lowercase identifier', () => {
    for (const schema of ['Document', 'a-b', 'x"; DROP TABLE y; --', '', 'a'.repeat(49)])
      assert.throws(() => createPostgresEventStore({ connectionString: url!, schema }), RangeError);
  });
});

describe('postgres event store without a server', () => {
  it('rejects with StoreUnavailable when the server accepts and never answers', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const store = createPostgresEventStore({
      connectionString: `postgres://docflow:x@127.0.0.1:${port}/docflow`,
      schema: 'nobody',
      timeoutMs: 300,
    });
    try {
      for (const [what, run] of [
        ['append', () => store.append('docForm-1', [event()], 0)],
        ['readStream', () => store.readStream('docForm-1')],
        ['ping', () => store.ping()],
      ] as const) {
        await assert.rejects(run(), StoreUnavailable, what);
      }
      assert.ok(sockets.size > 0, 'the client did reach the silent server');
    } finally {
      await store.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('rejects every call with StoreUnavailable when nothing listens on the port', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const store = createPostgresEventStore({
      connectionString: `postgres://docflow:x@127.0.0.1:${port}/docflow`,
      schema: 'nobody',
      timeoutMs: 2_000,
    });
    try {
      await assert.rejects(store.append('docForm-1', [event()], 0), StoreUnavailable);
      await assert.rejects(store.readStream('docForm-1'), StoreUnavailable);
      await assert.rejects(store.ping(), StoreUnavailable);
    } finally {
      await store.close();
    }
    await assert.rejects(store.ping(), StoreUnavailable);
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
