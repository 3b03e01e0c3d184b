/** The workspace's one timeout helper; no dependencies, so the ports may use it. */
export { TimeoutError, withTimeout } from './timeout';
