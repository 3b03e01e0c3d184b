import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { GenericContainer, getContainerRuntimeClient, Wait } from 'testcontainers';
import { describeEventStoreContract } from './conformance';
import { createEsdbEventStore, decodePosition, encodePosition } from './esdb';
import { type EventStore, StoreUnavailable } from './port';

const IMAGE = 'eventstore/eventstore:24.10';
const HTTP_PORT = 2113;
const READY_TIMEOUT_MS = 60_000;

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;
const hasContainerRuntime =
  connectionString === undefined &&
  (await getContainerRuntimeClient().then(
    () => true,
    () => false,
  ));
const skip =
  connectionString || hasContainerRuntime
    ? undefined
    : 'no container runtime and no EVENTSTORE_CONNECTION_STRING: EventStoreDB adapter not exercised';

describeEventStoreContract(
  connectionString ? 'esdb (EVENTSTORE_CONNECTION_STRING)' : `esdb (${IMAGE})`,
  async () => {
    if (connectionString) {
      const store = createEsdbEventStore({ connectionString });
      await untilReady(store);
      return { store, cleanup: () => store.close() };
    }
    const container = await new GenericContainer(IMAGE)
      .withEnvironment({
        EVENTSTORE_INSECURE: 'true',
        EVENTSTORE_RUN_PROJECTIONS: 'None',
        EVENTSTORE_MEM_DB: 'true',
      })
      .withExposedPorts(HTTP_PORT)
      .withWaitStrategy(
        Wait.forHttp('/health/live', HTTP_PORT).forStatusCodeMatching((s) => s >= 200 && s < 300),
      )
      .withStartupTimeout(120_000)
      .start();
    const store = createEsdbEventStore({
      connectionString: `esdb://${container.getHost()}:${container.getMappedPort(HTTP_PORT)}?tls=false`,
    });
    await untilReady(store);
    return {
      store,
      cleanup: async () => {
        await store.close();
        await container.stop();
      },
    };
  },
  { skip },
);

/** The node answers health checks a moment before it accepts writes as leader. */
async function untilReady(store: EventStore): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      await store.ping();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

describe('esdb adapter without an engine', () => {
  const TIMEOUT_MS = 300;
  /** A TCP server that accepts connections and never says a word. */
  let silent: Server;
  let silentPort: number;
  const sockets = new Set<Socket>();

  before(async () => {
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  const event = () => ({
    id: randomUUID(),
    type: 'Noted',
    version: 1,
    data: {},
    metadata: { correlationId: randomUUID(), timestamp: new Date().toISOString() },
  });

  it('rejects every call with StoreUnavailable within the timeout when the server never answers', async () => {
    const store = createEsdbEventStore({
      connectionString: `esdb://127.0.0.1:${silentPort}?tls=false`,
      timeoutMs: TIMEOUT_MS,
    });
    try {
      for (const [what, call] of [
        ['append', () => store.append('docForm-silent', [event()], 0)],
        ['readStream', () => store.readStream('docForm-silent')],
        ['ping', () => store.ping()],
      ] as const) {
        const started = performance.now();
        await assert.rejects(call(), StoreUnavailable, what);
        const elapsed = performance.now() - started;
        assert.ok(elapsed >= TIMEOUT_MS - 50 && elapsed < TIMEOUT_MS + 1_000, `${what} took ${elapsed} ms`);
      }
      assert.ok(sockets.size > 0, 'the client did reach the silent server');
    } finally {
      await store.close();
    }
  });

  it('rejects with StoreUnavailable when nothing listens on the port', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));

    const store = createEsdbEventStore({
      connectionString: `esdb://127.0.0.1:${port}?tls=false`,
      timeoutMs: 2_000,
    });
    try {
      await assert.rejects(store.append('docForm-refused', [event()], 0), StoreUnavailable);
    } finally {
      await store.close();
    }
  });

  it('stops a subscription to a silent server promptly, having delivered nothing', async () => {
    const store = createEsdbEventStore({
      connectionString: `esdb://127.0.0.1:${silentPort}?tls=false`,
      timeoutMs: TIMEOUT_MS,
    });
    let calls = 0;
    const subscription = store.subscribeAll({}, async () => {
      calls++;
    });
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 3));
    const started = performance.now();
    await subscription.stop();
    assert.ok(performance.now() - started < 1_000, 'stop() does not wait for the silent server');
    assert.equal(calls, 0);
    await store.close();
  });

  it('encodes positions that round-trip and compare in log order as strings', () => {
    const positions = [
      { commit: 0n, prepare: 0n },
      { commit: 9n, prepare: 9n },
      { commit: 10n, prepare: 3n },
      { commit: 10n, prepare: 10n },
      { commit: 2n ** 63n, prepare: 2n ** 63n - 1n },
      { commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n },
    ];
    const encoded = positions.map(encodePosition);
    assert.deepEqual(encoded.map(decodePosition), positions);
    assert.deepEqual([...encoded].sort(), encoded);
    assert.throws(() => decodePosition('0000000000000000'), RangeError);
    assert.throws(() => decodePosition('12-34'), RangeError);
  });

  it('rejects invalid arguments before calling the engine', async () => {
    const store = createEsdbEventStore({ connectionString: `esdb://127.0.0.1:${silentPort}?tls=false` });
    try {
      await assert.rejects(store.append('docForm-x', [], 0), RangeError);
      await assert.rejects(store.append('docForm-x', [event()], -1), RangeError);
      await assert.rejects(store.readStream('docForm-x', { fromRevision: 0 }), RangeError);
      assert.throws(() => store.subscribeAll({ after: 'nope' }, async () => {}), RangeError);
    } finally {
      await store.close();
    }
  });
});
