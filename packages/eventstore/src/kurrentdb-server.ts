/**
 * The KurrentDB server the EventStoreDB adapter is built and tested against. docker-compose.yml runs
 * the same image with the same maximum append size; esdb.int.test.ts checks that the two agree.
 */
import { MAX_APPEND_BYTES } from './port';

export const KURRENTDB_SERVER = {
  image: 'kurrentplatform/kurrentdb:25.0',
  /**
   * The server's own limit on one append (its default is 1 MiB). The port refuses more than
   * MAX_APPEND_BYTES first; the server counts a little more per event (the adapter's schema-version
   * key in the metadata), so it gets twice the port's limit and never refuses what the port let in.
   */
  maxAppendSize: 2 * MAX_APPEND_BYTES,
} as const;

/** Environment of a throw-away test container of KURRENTDB_SERVER: in memory, insecure, no projections. */
export const KURRENTDB_TEST_ENVIRONMENT: Record<string, string> = {
  KURRENTDB_INSECURE: 'true',
  KURRENTDB_RUN_PROJECTIONS: 'None',
  KURRENTDB_MEM_DB: 'true',
  KURRENTDB_MAX_APPEND_SIZE: String(KURRENTDB_SERVER.maxAppendSize),
};
