/** Polling with back-off while something runs on the server (recognition): no refresh button needed. */
import { useEffect } from 'preact/hooks';

const FIRST_MS = 1_000;
const MAX_MS = 10_000;

/**
 * While `running`, calls `reload` after 1 s, then 2 s, 4 s, … up to 10 s between calls; stops when
 * `running` turns false or the component goes.
 *
 * @example usePollWhile(doc.data?.recoStatus === 'pending', doc.reload);
 */
export function usePollWhile(running: boolean, reload: () => void): void {
  useEffect(() => {
    if (!running) return;
    let delay = FIRST_MS;
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      reload();
      delay = Math.min(delay * 2, MAX_MS);
      timer = setTimeout(tick, delay);
    };
    timer = setTimeout(tick, delay);
    return () => clearTimeout(timer);
  }, [running, reload]);
}
