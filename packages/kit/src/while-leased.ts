/**
 * Work that one process of a service does at a time, on a store its processes share (the relay,
 * audit checkpoints): it runs in the process that holds the store's lease of that name and in no
 * other. What the work saves as its position travels with the lease (at each renewal and when the
 * holder stops), so the next holder resumes there. A holder whose renewal fails stops the work at
 * once and claims again; a holder that dies loses the lease after its time to live, so a standby
 * takes over within the time to live plus a third of it.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceLease, Subscription } from '@docflow/eventstore';
import type { Logger } from './logger';

/** The work while it runs: stops, and says how far it got (undefined: nothing to save). */
export interface LeasedWork {
  stop(): Promise<void>;
  position(): string | undefined;
}

export interface WhileLeasedOptions {
  lease: ServiceLease;
  /** The lease's name: one holder per name and store. */
  name: string;
  /** Who holds the lease; default host, pid and a random suffix. */
  holder?: string;
  log: Logger;
  /** Starts the work from the position the lease carries (undefined when none was saved yet). */
  start(position: string | undefined): LeasedWork;
}

export function whileLeased(options: WhileLeasedOptions): Subscription {
  const { lease, name, log } = options;
  const holder = options.holder ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const interval = Math.max(10, Math.floor(lease.ttlMs / 3));
  const stopping = new AbortController();
  const pause = () => sleep(interval, undefined, { signal: stopping.signal }).catch(() => {});

  async function holdWhileRenewed(position: string | undefined): Promise<void> {
    const work = options.start(position);
    let held = true;
    while (held && !stopping.signal.aborted) {
      await pause();
      if (stopping.signal.aborted) break;
      held = await lease.renew(name, holder, work.position()).catch((error: unknown) => {
        log.warn({ lease: name, err: error }, 'lease could not be renewed');
        return false;
      });
    }
    await work.stop();
    if (!held) {
      log.warn(
        { lease: name, holder },
        'lease lost: this process does the work no more until it takes it again',
      );
      return;
    }
    await lease.release(name, holder, work.position()).catch((error: unknown) => {
      log.warn({ lease: name, err: error }, 'lease could not be released; it expires by itself');
    });
  }

  const running = (async () => {
    while (!stopping.signal.aborted) {
      const claimed = await lease.claim(name, holder).catch((error: unknown) => {
        log.warn({ lease: name, err: error }, 'lease could not be claimed');
        return false as const;
      });
      if (!claimed) {
        await pause();
        continue;
      }
      log.info({ lease: name, holder }, 'lease taken');
      await holdWhileRenewed(claimed.position);
    }
  })();

  return {
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
