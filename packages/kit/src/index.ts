/**
 * What every part of a service uses: configuration, ids, the logger, tracing. The rest is in subpaths,
 * so a service pulls in only what it uses: `@docflow/kit/http`, `/eventsourcing`, `/engines`, `/runner`.
 */
export * from './config';
export * from './ids';
export * from './keyed-lock';
export * from './logger';
export * from './telemetry';
export * from './trace-context';
export * from './tracing';
