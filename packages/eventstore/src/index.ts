export { createEsdbEventStore, type EsdbEventStoreOptions } from './esdb';
export * from './port';
export { createSqliteEventStore, type SqliteEventStoreOptions } from './sqlite';
