/**
 * Schemas of their own on the shared PostgreSQL store (infra/local/up.sh writes POSTGRES_URL to
 * .infra/env) for an adapter's int test: why the file skips without it, a fresh schema name, and the
 * event store opened on a schema (the schema created), every one closed after the file's tests.
 * Call it once at the top of the test file.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after } from 'node:test';
import { createPostgresEventStore, type PostgresEventStore } from '@docflow/eventstore';

export function postgresSchemas(prefix: string) {
  const url = process.env.POSTGRES_URL;
  const required = process.env.DOCFLOW_ENGINES_REQUIRED === '1';
  const stores: PostgresEventStore[] = [];
  after(() => Promise.all(stores.map((s) => s.close())));
  return {
    skip:
      url || required
        ? undefined
        : 'no PostgreSQL: POSTGRES_URL is not set (infra/local/up.sh writes it to .infra/env)',
    /** A schema name no other test uses, `<prefix>_…`. */
    fresh: () => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`,
    async open(schema: string): Promise<PostgresEventStore> {
      assert.ok(url, 'DOCFLOW_ENGINES_REQUIRED=1 but POSTGRES_URL is not set');
      const store = createPostgresEventStore({ connectionString: url, schema });
      stores.push(store);
      await store.ping(); // creates the schema
      return store;
    },
  };
}
