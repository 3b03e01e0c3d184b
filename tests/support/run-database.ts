/**
 * A PostgreSQL database of its own for one distributed run (on the server infra/local/up.sh starts,
 * POSTGRES_URL): the services keep their events in schemas named after them, so runs sharing the
 * server would otherwise read each other's streams. Dropped when the run stops.
 */
import pg from 'pg';

export interface RunDatabase {
  /** Connection string of the run's database. */
  url: string;
  drop(): Promise<void>;
}

export async function createRunDatabase(serverUrl: string, name: string): Promise<RunDatabase> {
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(name)) throw new RangeError(`database name ${name}`);
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
