import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  binaryEvent,
  type RecordedEvent as EsdbRecordedEvent,
  EventStoreDBClient,
  MaxAppendSizeExceededError,
  UnknownError,
} from '@eventstore/db-client';
import { GenericContainer, getContainerRuntimeClient, Wait } from 'testcontainers';
import { type ContractStore, describeEventStoreContract } from './conformance';
import { createEsdbEventStore, decodePosition, encodePosition, toRecorded, toStoreError } from './esdb';
import { KURRENTDB_SERVER, KURRENTDB_TEST_ENVIRONMENT } from './kurrentdb-server';
import { AppendTooLarge, type EventStore, ForeignEvent, StoreUnavailable } from './port';

const IMAGE = KURRENTDB_SERVER.image;
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
    if (connectionString) return contractStore(connectionString, async () => {});
    const container = await new GenericContainer(IMAGE)
      .withEnvironment(KURRENTDB_TEST_ENVIRONMENT)
      .withExposedPorts(HTTP_PORT)
      .withWaitStrategy(
        Wait.forHttp('/health/live', HTTP_PORT).forStatusCodeMatching((s) => s >= 200 && s < 300),
      )
      .withStartupTimeout(120_000)
      .start();
    return contractStore(
      `esdb://${container.getHost()}:${container.getMappedPort(HTTP_PORT)}?tls=false`,
      async () => {
        await container.stop();
      },
    );
  },
  { skip },
);

/** The adapter under test, and the engine's own client for what other writers and operators do. */
async function contractStore(connection: string, stopEngine: () => Promise<void>): Promise<ContractStore> {
  const store = createEsdbEventStore({ connectionString: connection });
  await untilReady(store);
  const raw = EventStoreDBClient.connectionString(connection);
  return {
    store,
    backdoor: {
      async appendForeign(streamId) {
        await raw.appendToStream(
          streamId,
          binaryEvent({ type: 'Foreign', data: Buffer.from('not json'), metadata: Buffer.from('{}') }),
        );
      },
      async truncateBefore(streamId, revision) {
        await raw.setStreamMetadata(streamId, { truncateBefore: revision - 1 });
      },
      async deleteStream(streamId) {
        await raw.deleteStream(streamId);
      },
      // KurrentDB numbers an event (its log position) when the append is written.
      async beginAppend(streamId, event) {
        return { commit: async () => void (await store.append(streamId, [event], 0)) };
      },
    },
    cleanup: async () => {
      await store.close();
      await raw.dispose();
      await stopEngine();
    },
  };
}

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

  it('reports each failed attempt to subscribe to a silent server, with the attempt number', {
    timeout: 20_000,
  }, async () => {
    const store = createEsdbEventStore({
      connectionString: `esdb://127.0.0.1:${silentPort}?tls=false`,
      timeoutMs: 100,
    });
    const reports: { error: unknown; attempt: number }[] = [];
    const subscription = store.subscribeAll(
      { onSubscriptionError: (error, attempt) => reports.push({ error, attempt }) },
      async () => {},
    );
    try {
      while (reports.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await subscription.stop();
      await store.close();
    }
    assert.deepEqual(
      reports.slice(0, 3).map((report) => report.attempt),
      [1, 2, 3],
    );
    for (const { error } of reports) assert.ok(error instanceof StoreUnavailable, String(error));
  });

  it('fails a read still open when the store closes, instead of leaving it to the server', {
    timeout: 20_000,
  }, async () => {
    const store = createEsdbEventStore({
      connectionString: `esdb://127.0.0.1:${silentPort}?tls=false`,
      timeoutMs: 120_000,
    });
    const head = store.headPosition({ streamPrefixes: ['docForm-'] });
    const read = store.readStream('docForm-open');
    await store.close();
    await assert.rejects(head, StoreUnavailable);
    await assert.rejects(read, StoreUnavailable);
  });

  it('maps not ready, busy and over-size answers of the engine to the port errors', () => {
    for (const message of ['Server Is Not Ready', 'Server Is Too Busy']) {
      // What the client makes of these over batch append: an UnknownError that only says it.
      const mapped = toStoreError('append', new UnknownError(undefined, `Could not recognize ${message}`));
      assert.ok(mapped instanceof StoreUnavailable, `${message}: ${String(mapped)}`);
    }
    const grpcUnavailable = Object.assign(new Error('14 UNAVAILABLE: Server Is Not Ready'), { code: 14 });
    assert.ok(toStoreError('readStream', grpcUnavailable) instanceof StoreUnavailable);

    const tooLarge = toStoreError(
      'append',
      MaxAppendSizeExceededError.fromMaxAppendSize(1_048_576),
      'docForm-1',
    );
    assert.ok(tooLarge instanceof AppendTooLarge, String(tooLarge));
    assert.equal(tooLarge.maxBytes, 1_048_576);
    assert.equal(tooLarge.streamId, 'docForm-1');

    const bug = new TypeError('a bug');
    assert.equal(toStoreError('append', bug), bug);
  });

  it('decodes an engine event with its stored revision, and a foreign one as ForeignEvent', () => {
    const base: EsdbRecordedEvent = {
      streamId: 'docForm-1',
      id: randomUUID(),
      revision: 41n,
      type: 'DocumentCreated',
      data: { a: 1 },
      metadata: { correlationId: 'c', timestamp: '2024-01-01T00:00:00.000Z', $schemaVersion: 2 },
      isJson: true,
      created: new Date('2024-01-01T00:00:01.000Z'),
      position: { commit: 7n, prepare: 7n },
    } as EsdbRecordedEvent;
    const decoded = toRecorded(base);
    assert.deepEqual(
      [decoded.revision, decoded.version, decoded.metadata, decoded.recordedAt],
      [42, 2, { correlationId: 'c', timestamp: '2024-01-01T00:00:00.000Z' }, '2024-01-01T00:00:01.000Z'],
    );
    const foreign = [
      { ...base, isJson: false, data: new Uint8Array([1]) },
      { ...base, data: '{not json' },
      { ...base, data: [1, 2] },
      { ...base, metadata: new Uint8Array([1]) },
      { ...base, metadata: undefined },
    ] as EsdbRecordedEvent[];
    for (const event of foreign) {
      assert.throws(
        () => toRecorded(event),
        (error) => error instanceof ForeignEvent && error.event.revision === 42 && error.event.id === base.id,
      );
    }
  });

  it('runs the image and maximum append size that docker-compose.yml runs', async () => {
    const compose = await readFile(new URL('../../../docker-compose.yml', import.meta.url), 'utf8');
    const blocks = [...compose.matchAll(/^ {2}kurrentdb:\n((?: {4}.*\n|\s*\n)+)/gm)].map((m) => m[1]!);
    const service = blocks.find((block) => /^ {4}image:/m.test(block)) ?? '';
    assert.match(service, new RegExp(`^ {4}image: ${KURRENTDB_SERVER.image.replaceAll('.', '\\.')}$`, 'm'));
    assert.equal(
      /KURRENTDB_MAX_APPEND_SIZE: "?(\d+)"?/.exec(service)?.[1],
      String(KURRENTDB_SERVER.maxAppendSize),
    );
    assert.equal(
      KURRENTDB_TEST_ENVIRONMENT.KURRENTDB_MAX_APPEND_SIZE,
      String(KURRENTDB_SERVER.maxAppendSize),
    );
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
