/** The idempotency store on the shared PostgreSQL store (infra/local/up.sh): the same contract as SQLite's. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after } from 'node:test';
import { createPostgresEventStore, type PostgresEventStore } from '@docflow/eventstore';
import { postgresIdempotencyStore } from './postgres-store';
import { describeIdempotencyStoreContract } from './store-contract';

const url = process.env.POSTGRES_URL;
const required = process.env.DOCFLOW_ENGINES_REQUIRED === '1';
const stores: PostgresEventStore[] = [];
after(() => Promise.all(stores.map((s) => s.close())));

describeIdempotencyStoreContract(
  'postgres (POSTGRES_URL)',
  async (bounds) => {
    assert.ok(url, 'DOCFLOW_ENGINES_REQUIRED=1 but POSTGRES_URL is not set');
    const schema = `idem_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const store = createPostgresEventStore({ connectionString: url, schema });
    stores.push(store);
    await store.ping(); // creates the schema
    return postgresIdempotencyStore(store.sharedSql(), bounds);
  },
  {
    skip:
      url || required
        ? undefined
        : 'no PostgreSQL: POSTGRES_URL is not set (infra/local/up.sh writes it to .infra/env)',
  },
);
