/** The workspace's one timeout helper and one back-off policy; no dependencies, so the ports may use it. */
export { type BackoffPolicy, backoffDelayMs } from './backoff';
export { TimeoutError, withTimeout } from './timeout';
