export { createEsdbEventStore, type EsdbEventStoreOptions } from './esdb';
export * from './port';
export {
  createPostgresEventStore,
  DEFAULT_LEASE_TTL_MS,
  type PostgresEventStore,
  type PostgresEventStoreOptions,
  postgresEventsSchema,
  type SharedSql,
  type SqlResult,
} from './postgres';
export { createPrivateFile } from './private-file';
export { createSqliteEventStore, SQLITE_EVENTS_SCHEMA, type SqliteEventStoreOptions } from './sqlite';
export { sqliteWalSync, type WalSync } from './wal-sync';
