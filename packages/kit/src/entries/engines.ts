/**
 * Opening the engines of a distributed service (event store, Kafka bus, local database, MinIO),
 * instrumented.
 */
export * from '../blob-store-tracing';
export * from '../bus-metrics';
export * from '../bus-tracing';
export * from '../data-dir';
export * from '../data-dir-lock';
export * from '../engines';
export * from '../event-store-metrics';
export * from '../event-store-tracing';
