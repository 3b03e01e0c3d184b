/** A service's process: serve at once, start with retries behind a start gate, stop gracefully. */
export * from '../main-runner';
export * from '../service-main';
export * from '../start-gate';
export * from '../start-retry';
