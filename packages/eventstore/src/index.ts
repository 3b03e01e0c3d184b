export { createEsdbEventStore, type EsdbEventStoreOptions } from './esdb';
export * from './port';
export { createPrivateFile } from './private-file';
export { createSqliteEventStore, SQLITE_EVENTS_SCHEMA, type SqliteEventStoreOptions } from './sqlite';
export { sqliteWalSync, type WalSync } from './wal-sync';
