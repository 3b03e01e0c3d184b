export { createEsdbEventStore, type EsdbEventStoreOptions } from './esdb';
export * from './port';
export {
  createPostgresEventStore,
  DEFAULT_LEASE_TTL_MS,
  type PostgresEventStore,
  type PostgresEventStoreOptions,
  postgresEventsSchema,
} from './postgres';
export { createPrivateFile } from './private-file';
export type { SharedSql, SqlResult } from './shared-sql';
export { createSqliteEventStore, SQLITE_EVENTS_SCHEMA, type SqliteEventStoreOptions } from './sqlite';
export { sqliteWalSync, type WalSync } from './wal-sync';
