/** Follows the head (revision and hash) of every document stream from the store's subscription. */
import type { StreamHead } from '@docflow/audit';
import type { EventStore } from '@docflow/eventstore';

const PREFIXES = ['docForm-'];

export interface StreamHeads {
  /** The heads seen so far, ordered by stream id. */
  heads(): StreamHead[];
  /** Whether every document event stored when asked has been seen. */
  caughtUp(): Promise<boolean>;
  stop(): Promise<void>;
}

export function followStreamHeads(store: EventStore, onError?: (error: unknown) => void): StreamHeads {
  const heads = new Map<string, StreamHead>();
  let last: string | undefined;
  const subscription = store.subscribeAll(
    { streamPrefixes: PREFIXES, ...(onError ? { onSubscriptionError: onError } : {}) },
    async (event) => {
      const hash = event.metadata.hash;
      heads.set(event.streamId, {
        streamId: event.streamId,
        revision: event.revision,
        hash: typeof hash === 'string' ? hash : '',
      });
      last = event.position;
    },
  );
  return {
    heads: () => [...heads.values()].sort((a, b) => (a.streamId < b.streamId ? -1 : 1)),
    async caughtUp() {
      const head = await store.headPosition({ streamPrefixes: PREFIXES });
      return head === undefined || (last !== undefined && last >= head);
    },
    stop: () => subscription.stop(),
  };
}
