/** The blob store contract as a node:test suite, run by every adapter's test file. */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { BlobStore } from './port';
import { BlobNotFound, BlobTooLarge } from './port';

export interface BlobStoreFixture {
  store: BlobStore;
  cleanup: () => Promise<void>;
  /** What the adapter holds for puts in progress (temp files, temporary objects); empty when idle. */
  leftovers?: () => Promise<string[]>;
}

const MiB = 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
const TEST_TIMEOUT_MS = 120_000;

/**
 * Runs the contract against the store that `makeStore` opens (once, before the tests).
 *
 * @example
 * describeBlobStoreContract('local', async () => {
 *   const dir = await mkdtemp(join(tmpdir(), 'blobs-'));
 *   return { store: await createLocalBlobStore({ dir }), cleanup: () => rm(dir, { recursive: true }) };
 * });
 */
export function describeBlobStoreContract(
  adapterName: string,
  makeStore: () => Promise<BlobStoreFixture>,
  options: { skip?: string } = {},
): void {
  describe(`blob store contract: ${adapterName}`, { skip: options.skip }, () => {
    let fixture: BlobStoreFixture | undefined;
    const store = () => {
      assert.ok(fixture, 'the store was not opened');
      return fixture.store;
    };
    const assertNoLeftovers = async () => {
      if (fixture?.leftovers) assert.deepEqual(await fixture.leftovers(), []);
    };
    const test = (name: string, fn: () => Promise<void>) => it(name, { timeout: TEST_TIMEOUT_MS }, fn);

    before(
      async () => {
        fixture = await makeStore();
      },
      { timeout: TEST_TIMEOUT_MS },
    );
    after(
      async () => {
        await fixture?.store.close();
        await fixture?.cleanup();
      },
      { timeout: TEST_TIMEOUT_MS },
    );

    test('ping resolves', async () => {
      await store().ping();
    });

    test('put then get round-trips bytes, size and sha256', async () => {
      const content = randomBytes(300 * 1024 + 7);
      const stored = await store().put(Readable.from(chunked(content)));
      assert.equal(stored.size, content.length);
      assert.equal(stored.sha256, sha256(content));
      assert.deepEqual(await readAll(await store().get(stored.key)), content);
      assert.deepEqual(await store().stat(stored.key), { size: content.length });
    });

    test('stores an empty blob', async () => {
      const stored = await store().put(Readable.from([]));
      assert.deepEqual(
        { size: stored.size, sha256: stored.sha256 },
        { size: 0, sha256: sha256(Buffer.alloc(0)) },
      );
      assert.equal((await readAll(await store().get(stored.key))).length, 0);
      assert.deepEqual(await store().stat(stored.key), { size: 0 });
    });

    test('streams a 32 MiB blob from a generator', async () => {
      const source = randomSource(32 * MiB);
      const stored = await store().put(source.chunks);
      assert.deepEqual({ size: stored.size, sha256: stored.sha256 }, source.expected());
      assert.deepEqual(await digestStream(await store().get(stored.key)), source.expected());
      await assertNoLeftovers();
    });

    test('two puts of the same content give the same key', async () => {
      const content = randomBytes(100 * 1024);
      const first = await store().put(Readable.from(chunked(content)));
      const second = await store().put(chunked(content));
      assert.deepEqual(second, first);
      assert.deepEqual(await readAll(await store().get(second.key)), content);
    });

    test('a put past maxBytes rejects with BlobTooLarge and stores nothing', async () => {
      const maxBytes = 20 * MiB;
      const content = randomBytes(24 * MiB);
      await assert.rejects(store().put(chunked(content), { maxBytes }), (error: unknown) => {
        assert.ok(error instanceof BlobTooLarge);
        assert.equal(error.maxBytes, maxBytes);
        return true;
      });
      await assertNotFound(store(), sha256(content));
      await assertNotFound(store(), sha256(content.subarray(0, maxBytes)));
      await assertNoLeftovers();
    });

    test('a put of exactly maxBytes is accepted', async () => {
      const content = randomBytes(MiB);
      const stored = await store().put(chunked(content), { maxBytes: content.length });
      assert.equal(stored.size, content.length);
    });

    test('get and stat of an unknown key reject with BlobNotFound', async () => {
      await assertNotFound(store(), sha256(randomBytes(32)));
      await assertNotFound(store(), '../../../etc/passwd');
    });

    test('a put whose source fails half-way rejects with that error and leaves nothing', async () => {
      const written = randomBytes(20 * MiB);
      const failure = new Error('source failed half-way');
      async function* failing() {
        yield* chunked(written);
        throw failure;
      }
      await assert.rejects(store().put(failing()), (error: unknown) => error === failure);
      await assertNotFound(store(), sha256(written));
      await assertNoLeftovers();
    });

    test('a blob is not readable while its put is in progress', async () => {
      const content = randomBytes(2 * MiB);
      let resume = () => {};
      const paused = new Promise<void>((resolve) => {
        resume = resolve;
      });
      let halfWritten = () => {};
      const half = new Promise<void>((resolve) => {
        halfWritten = resolve;
      });
      async function* slow() {
        yield content.subarray(0, MiB);
        halfWritten();
        await paused;
        yield content.subarray(MiB);
      }
      const putting = store().put(slow());
      await half;
      await assertNotFound(store(), sha256(content));
      resume();
      const stored = await putting;
      assert.equal(stored.sha256, sha256(content));
      assert.deepEqual(await readAll(await store().get(stored.key)), content);
    });

    test('10 concurrent puts all succeed', async () => {
      const contents = Array.from({ length: 10 }, () => randomBytes(MiB + 123));
      await Promise.all(
        contents.map(async (content) => {
          const stored = await store().put(chunked(content));
          assert.deepEqual(await readAll(await store().get(stored.key)), content);
        }),
      );
      const same = randomBytes(MiB);
      const keys = await Promise.all(Array.from({ length: 5 }, () => store().put(chunked(same))));
      assert.equal(new Set(keys.map((k) => k.key)).size, 1);
      await assertNoLeftovers();
    });

    test('delete then get and stat reject with BlobNotFound; deleting again is a no-op', async () => {
      const stored = await store().put(chunked(randomBytes(10_000)));
      await store().delete(stored.key);
      await assertNotFound(store(), stored.key);
      await store().delete(stored.key);
    });
  });
}

/** Random content of `totalBytes` as a generator of chunks, hashed as it is produced. */
export function randomSource(totalBytes: number): {
  chunks: AsyncIterable<Uint8Array>;
  expected: () => { size: number; sha256: string };
} {
  const hash = createHash('sha256');
  let produced = 0;
  async function* chunks() {
    while (produced < totalBytes) {
      const chunk = randomBytes(Math.min(CHUNK_BYTES, totalBytes - produced));
      hash.update(chunk);
      produced += chunk.length;
      yield chunk;
    }
  }
  return { chunks: chunks(), expected: () => ({ size: produced, sha256: hash.copy().digest('hex') }) };
}

/** Size and SHA-256 of a stream, read without keeping it. */
export async function digestStream(
  stream: AsyncIterable<Uint8Array>,
): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk);
    size += chunk.byteLength;
  }
  return { size, sha256: hash.digest('hex') };
}

async function* chunked(content: Buffer): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < content.length; offset += CHUNK_BYTES) {
    yield content.subarray(offset, offset + CHUNK_BYTES);
  }
}

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function assertNotFound(store: BlobStore, key: string): Promise<void> {
  const notFound = (error: unknown) => error instanceof BlobNotFound && error.key === key;
  await assert.rejects(store.get(key), notFound);
  await assert.rejects(store.stat(key), notFound);
}

function sha256(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * Puts `totalBytes` from a generator, checks that they read back intact, and returns how much the
 * process's RSS grew at its peak meanwhile (each adapter's test sets its own bound).
 */
export async function peakRssGrowthOfPut(store: BlobStore, totalBytes: number): Promise<number> {
  const source = randomSource(totalBytes);
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const stored = await store.put(source.chunks);
    assert.deepEqual({ size: stored.size, sha256: stored.sha256 }, source.expected());
    assert.deepEqual(await digestStream(await store.get(stored.key)), source.expected());
  } finally {
    clearInterval(sampler);
  }
  return peak - baseline;
}
