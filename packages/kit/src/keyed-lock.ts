/** Async work serialised per key inside one process: what runs under a key waits for the one before it. */

export interface KeyedLock {
  /** Runs `work` once every earlier `run` with the same key has settled; other keys do not wait. */
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/**
 * @example
 * const blobLocks = createKeyedLock();
 * await blobLocks.run(sha256, async () => { ... check, then delete ... });
 */
export function createKeyedLock(): KeyedLock {
  // The last holder's release per key; a key with nobody holding or waiting has no entry.
  const tails = new Map<string, Promise<void>>();
  return {
    async run(key, work) {
      const previous = tails.get(key) ?? Promise.resolve();
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const tail = previous.then(() => released);
      tails.set(key, tail);
      await previous;
      try {
        return await work();
      } finally {
        release();
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
  };
}
