/**
 * SQL in the service's schema on the store's connections: state that several processes of a service
 * share (each table created by its owner, `CREATE TABLE IF NOT EXISTS ${schema}.…`). Failures of the
 * server come as StoreUnavailable, like the store's own.
 */
export interface SharedSql {
  /** The schema, quoted, to prefix table names with. */
  readonly schema: string;
  query<R extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<SqlResult<R>>;
  /** Runs `work` in one transaction, committed when it resolves, rolled back when it throws. */
  transaction<T>(
    work: (
      query: <R extends Record<string, unknown>>(text: string, values?: unknown[]) => Promise<SqlResult<R>>,
    ) => Promise<T>,
  ): Promise<T>;
}

export interface SqlResult<R> {
  rows: R[];
  rowCount: number;
}
