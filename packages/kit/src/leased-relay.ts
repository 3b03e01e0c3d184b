/**
 * The relay of a service that runs as several processes on one shared event store: it runs in the
 * process that holds the store's relay lease and in no other, so the bus gets each event once rather
 * than once per process. The checkpoint travels with the lease (saved at each renewal and when the
 * holder stops), so the next holder resumes where the last one saved; what the last holder published
 * after that is published again, and consumers dedupe by event id. A holder whose renewal fails stops
 * relaying at once and claims again; a holder that dies loses the lease after its time to live, so a
 * standby takes over within the time to live plus a third of it.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RelayLease, Subscription } from '@docflow/eventstore';
import type { CheckpointStore } from './local-db';
import { type RelayOptions, startRelay } from './relay';

export interface LeasedRelayOptions extends Omit<RelayOptions, 'checkpoints'> {
  lease: RelayLease;
  /**
   * Where the relay starts when the lease carries no checkpoint yet: the process's own, so that a
   * service moved onto a shared store does not publish its whole history again.
   */
  localCheckpoints: CheckpointStore;
  /** Who holds the lease; default host, pid and a random suffix. */
  holder?: string;
}

export function startLeasedRelay(options: LeasedRelayOptions): Subscription {
  const { lease, name, log } = options;
  const holder = options.holder ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const interval = Math.max(10, Math.floor(lease.ttlMs / 3));
  const stopping = new AbortController();
  const pause = () => sleep(interval, undefined, { signal: stopping.signal }).catch(() => {});

  async function holdWhileRenewed(start: string | undefined): Promise<void> {
    let position = start;
    const relay = startRelay({
      ...options,
      checkpoints: {
        load: () => position,
        save: (_name, saved) => {
          position = saved;
        },
      },
    });
    let held = true;
    while (held && !stopping.signal.aborted) {
      await pause();
      if (stopping.signal.aborted) break;
      held = await lease.renew(name, holder, position).catch((error: unknown) => {
        log.warn({ relay: name, err: error }, 'relay lease could not be renewed');
        return false;
      });
    }
    await relay.stop();
    if (!held) {
      log.warn(
        { relay: name, holder },
        'relay lease lost: this process relays no more until it takes it again',
      );
      return;
    }
    await lease.release(name, holder, position).catch((error: unknown) => {
      log.warn({ relay: name, err: error }, 'relay lease could not be released; it expires by itself');
    });
  }

  const running = (async () => {
    while (!stopping.signal.aborted) {
      const claimed = await lease.claim(name, holder).catch((error: unknown) => {
        log.warn({ relay: name, err: error }, 'relay lease could not be claimed');
        return false as const;
      });
      if (!claimed) {
        await pause();
        continue;
      }
      log.info({ relay: name, holder }, 'relay lease taken');
      await holdWhileRenewed(claimed.position ?? options.localCheckpoints.load(name));
    }
  })();

  return {
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
