/** Waiting, bounded, until a read model reaches a state: woken by its `changed` events. */
import type { EventEmitter } from 'node:events';

/**
 * Resolves true once `reached()` holds (checked now, then on each `changed` naming `id`), false after
 * `timeoutMs`.
 */
export function waitUntil(updates: EventEmitter, id: string, reached: () => boolean, timeoutMs: number) {
  if (reached()) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const onChange = (changed: string) => {
      if (changed === id && reached()) done(true);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    function done(ok: boolean) {
      clearTimeout(timer);
      updates.off('changed', onChange);
      resolve(ok);
    }
    updates.on('changed', onChange);
  });
}
