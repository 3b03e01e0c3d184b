/**
 * The relay of a service that runs as several processes on one shared event store: it runs in the
 * process that holds the relay lease (whileLeased), so the bus gets each event once rather than once
 * per process. Its checkpoint travels with the lease; what the last holder published after the
 * checkpoint it saved is published again by the next one, and consumers dedupe by event id.
 */
import type { ServiceLease, Subscription } from '@docflow/eventstore';
import type { CheckpointStore } from './local-db';
import { type RelayOptions, startRelay } from './relay';
import { whileLeased } from './while-leased';

export interface LeasedRelayOptions extends Omit<RelayOptions, 'checkpoints'> {
  lease: ServiceLease;
  /**
   * Where the relay starts when the lease carries no checkpoint yet: the process's own, so that a
   * service moved onto a shared store does not publish its whole history again.
   */
  localCheckpoints: CheckpointStore;
  /** Who holds the lease (whileLeased's default when absent). */
  holder?: string;
}

export function startLeasedRelay(options: LeasedRelayOptions): Subscription {
  return whileLeased({
    lease: options.lease,
    name: options.name,
    holder: options.holder,
    log: options.log,
    start(leased) {
      let position = leased ?? options.localCheckpoints.load(options.name);
      const relay = startRelay({
        ...options,
        checkpoints: {
          load: () => position,
          save: (_name, saved) => {
            position = saved;
          },
        },
      });
      return { stop: () => relay.stop(), position: () => position };
    },
  });
}
