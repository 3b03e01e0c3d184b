import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo, Server, Socket } from 'node:net';
import { createServer } from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Client } from 'minio';
import { describeBlobStoreContract, digestStream, peakRssGrowthOfPut, randomSource } from './conformance';
import type { MinioBlobStore, MinioBlobStoreOptions } from './minio';
import { createMinioBlobStore } from './minio';
import { BlobStoreUnavailable } from './port';

const MINIO_IMAGE = 'minio/minio:RELEASE.2025-04-22T22-12-26Z';
const MiB = 1024 * 1024;
const TIMEOUT_MS = 180_000;

interface MinioServer {
  endPoint: string;
  port: number;
  accessKey: string;
  secretKey: string;
  stop: () => Promise<void>;
}

/** The server infra/local/up.sh started (.infra/env), else a container, else why there is none. */
async function findServer(): Promise<MinioServer | string> {
  const { MINIO_ENDPOINT, MINIO_ACCESS_KEY, MINIO_SECRET_KEY } = process.env;
  if (MINIO_ENDPOINT && MINIO_ACCESS_KEY && MINIO_SECRET_KEY) {
    const separator = MINIO_ENDPOINT.lastIndexOf(':');
    return {
      endPoint: MINIO_ENDPOINT.slice(0, separator),
      port: Number(MINIO_ENDPOINT.slice(separator + 1)),
      accessKey: MINIO_ACCESS_KEY,
      secretKey: MINIO_SECRET_KEY,
      stop: async () => {},
    };
  }
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
  if (
    !(await getContainerRuntimeClient().then(
      () => true,
      () => false,
    ))
  ) {
    return 'MinIO not run: MINIO_ENDPOINT is not set (infra/local/up.sh writes it to .infra/env) and no container runtime is available for testcontainers';
  }
  const accessKey = 'docflow';
  const secretKey = randomUUID();
  const container = await new GenericContainer(MINIO_IMAGE)
    .withCommand(['server', '/data'])
    .withEnvironment({ MINIO_ROOT_USER: accessKey, MINIO_ROOT_PASSWORD: secretKey })
    .withExposedPorts(9000)
    .withWaitStrategy(Wait.forHttp('/minio/health/live', 9000))
    .withStartupTimeout(120_000)
    .start();
  return {
    endPoint: container.getHost(),
    port: container.getMappedPort(9000),
    accessKey,
    secretKey,
    stop: async () => {
      await container.stop();
    },
  };
}

const found = await findServer();
const server = typeof found === 'string' ? undefined : found;
const skip = typeof found === 'string' ? found : undefined;
if (server) after(() => server.stop(), { timeout: 60_000 });

const runId = `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;
let bucketCount = 0;

function clientOptions(): Omit<MinioBlobStoreOptions, 'bucket'> {
  assert.ok(server, 'no MinIO server');
  return {
    endPoint: server.endPoint,
    port: server.port,
    useSSL: false,
    accessKey: server.accessKey,
    secretKey: server.secretKey,
  };
}

/** A store on a bucket of its own, unique to this run. */
function connect(options: Partial<MinioBlobStoreOptions> = {}): { store: MinioBlobStore; bucket: string } {
  bucketCount += 1;
  const bucket = `docflow-test-${runId}-${bucketCount}`;
  return { store: createMinioBlobStore({ ...clientOptions(), bucket, ...options }), bucket };
}

function adminClient(): Client {
  assert.ok(server, 'no MinIO server');
  return new Client({
    endPoint: server.endPoint,
    port: server.port,
    useSSL: false,
    accessKey: server.accessKey,
    secretKey: server.secretKey,
    region: 'us-east-1',
  });
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Temporary objects and unfinished multipart uploads: what a finished put must not leave behind. */
async function leftovers(admin: Client, bucket: string): Promise<string[]> {
  const objects = await collect(admin.listObjectsV2(bucket, 'incoming/', true));
  const uploads = await collect(admin.listIncompleteUploads(bucket, '', true));
  return [...objects.map((o) => `object ${o.name}`), ...uploads.map((u) => `upload ${u.key}`)];
}

async function dropBucket(admin: Client, bucket: string): Promise<void> {
  if (!(await admin.bucketExists(bucket))) return;
  for (const upload of await collect(admin.listIncompleteUploads(bucket, '', true))) {
    await admin.removeIncompleteUpload(bucket, upload.key);
  }
  const names = (await collect(admin.listObjectsV2(bucket, '', true))).flatMap((o) =>
    o.name ? [o.name] : [],
  );
  if (names.length > 0) await admin.removeObjects(bucket, names);
  await admin.removeBucket(bucket);
}

if (skip !== undefined && process.env.DOCFLOW_ENGINES_REQUIRED === '1') {
  it('MinIO is available (DOCFLOW_ENGINES_REQUIRED=1)', () => {
    assert.fail(`${skip}; start it with infra/local/up.sh and load .infra/env`);
  });
}

describeBlobStoreContract(
  'minio',
  async () => {
    const { store, bucket } = connect();
    await store.ensureBucket();
    const admin = adminClient();
    return { store, cleanup: () => dropBucket(admin, bucket), leftovers: () => leftovers(admin, bucket) };
  },
  { skip },
);

describe('minio blob store on a real server', { skip }, () => {
  const opened: { store: MinioBlobStore; bucket: string }[] = [];
  const open = (options: Partial<MinioBlobStoreOptions> = {}) => {
    const connected = connect(options);
    opened.push(connected);
    return connected;
  };
  let admin: Client;

  before(() => {
    admin = adminClient();
  });
  after(
    async () => {
      for (const { store, bucket } of opened) {
        await store.close();
        await dropBucket(admin, bucket);
      }
    },
    { timeout: TIMEOUT_MS },
  );

  it('creates its bucket once, with a rule expiring temporary objects', { timeout: TIMEOUT_MS }, async () => {
    const { store, bucket } = open();
    const twin = createMinioBlobStore({ ...clientOptions(), bucket });
    try {
      await Promise.all([store.ensureBucket(), store.ensureBucket(), twin.ensureBucket()]);
      assert.equal(await admin.bucketExists(bucket), true);
      // The client parses a single rule as an object, several as an array.
      const rules = [(await admin.getBucketLifecycle(bucket))?.Rule ?? []].flat();
      assert.deepEqual(
        rules.map((rule) => rule.ID),
        ['expire-incoming'],
      );
      await store.ping();
    } finally {
      await twin.close();
    }
  });

  it('ping creates a bucket that does not exist yet', { timeout: TIMEOUT_MS }, async () => {
    const { store, bucket } = open();
    await store.ping();
    assert.equal(await admin.bucketExists(bucket), true);
  });

  it('copies a blob larger than copyPartBytes in ranges', { timeout: TIMEOUT_MS }, async () => {
    const { store, bucket } = open({ partBytes: 5 * MiB, copyPartBytes: 5 * MiB });
    const source = randomSource(12 * MiB + 3);
    const stored = await store.put(source.chunks);
    assert.deepEqual({ size: stored.size, sha256: stored.sha256 }, source.expected());
    assert.deepEqual(await digestStream(await store.get(stored.key)), source.expected());
    assert.deepEqual(await leftovers(admin, bucket), []);
  });

  it('keeps memory bounded while putting 256 MiB from a generator', { timeout: TIMEOUT_MS }, async () => {
    const { store } = open();
    const growth = await peakRssGrowthOfPut(store, 256 * MiB);
    assert.ok(growth < 96 * MiB, `RSS grew by ${(growth / MiB).toFixed(1)} MiB`);
  });
});

describe('minio blob store without a server', () => {
  const unreachable = (port: number, timeoutMs?: number) =>
    createMinioBlobStore({
      endPoint: '127.0.0.1',
      port,
      useSSL: false,
      accessKey: 'docflow',
      secretKey: 'docflow-secret',
      bucket: 'docflow-unreachable',
      timeoutMs,
    });

  async function assertUnavailableWithin(ms: number, operation: () => Promise<unknown>): Promise<void> {
    const started = performance.now();
    await assert.rejects(operation(), BlobStoreUnavailable);
    const elapsed = performance.now() - started;
    assert.ok(elapsed < ms, `took ${elapsed.toFixed(0)} ms`);
  }

  it('rejects with BlobStoreUnavailable when nothing listens on the port', { timeout: 30_000 }, async () => {
    const port = await closedPort();
    const store = unreachable(port);
    try {
      await assertUnavailableWithin(3_000, () => store.ping());
      await assertUnavailableWithin(3_000, () => store.put(Readable.from([Buffer.from('hello')])));
      await assertUnavailableWithin(3_000, () => store.get('0'.repeat(64)));
    } finally {
      await store.close();
    }
  });

  it('rejects with BlobStoreUnavailable when the server accepts but never answers', {
    timeout: 30_000,
  }, async () => {
    const silent = await silentServer();
    const store = unreachable(silent.port, 1_000);
    try {
      await assertUnavailableWithin(3_000, () => store.ping());
      await assertUnavailableWithin(3_000, () => store.put(Readable.from([Buffer.from('hello')])));
      await assertUnavailableWithin(3_000, () => store.stat('0'.repeat(64)));
    } finally {
      await store.close();
      await silent.close();
    }
  });
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const silent: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  return {
    port: (silent.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    },
  };
}
