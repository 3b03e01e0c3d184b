/** One shape for the store wrappers that change only how events are appended (tracing, stamping). */
import type { EventStore } from '@docflow/eventstore';
import { sameOwner } from './event-store-metrics';

/**
 * `store` with `append` in place of its own; every other member goes to `store`, and the wrapper is
 * owned by the same service (metrics labels).
 * @example withAppend(store, (streamId, events, expected) => store.append(streamId, events, expected));
 */
export function withAppend(store: EventStore, append: EventStore['append']): EventStore {
  const wrapper: EventStore = {
    append,
    readStream: (streamId, options) => store.readStream(streamId, options),
    subscribeAll: (options, handler) => store.subscribeAll(options, handler),
    headPosition: (options) => store.headPosition(options),
    countAfter: (options) => store.countAfter(options),
    ping: () => store.ping(),
    close: () => store.close(),
  };
  sameOwner(wrapper, store);
  return wrapper;
}
