/** The lease on a real PostgreSQL (infra/local/up.sh): one holder at a time, expiry, the checkpoint it carries. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPostgresEventStore } from './postgres';

const url = process.env.POSTGRES_URL;
const enginesRequired = process.env.DOCFLOW_ENGINES_REQUIRED === '1';
const skip = url
  ? undefined
  : 'no PostgreSQL: POSTGRES_URL is not set (infra/local/up.sh writes it to .infra/env)';

describe('postgres service lease', { skip: enginesRequired ? undefined : skip }, () => {
  assert.ok(url, 'DOCFLOW_ENGINES_REQUIRED=1 but POSTGRES_URL is not set');
  const schema = `lease_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const store = createPostgresEventStore({ connectionString: url, schema });
  after(() => store.close());

  it('has one holder at a time; the holder renews, saves its checkpoint, and releases to the next at once', async () => {
    const lease = store.serviceLease(60_000);
    assert.deepEqual(await lease.claim('r', 'a'), { position: undefined });
    assert.equal(await lease.claim('r', 'b'), false, 'b while a holds it');
    assert.equal(await lease.renew('r', 'a', 'p1'), true);
    assert.equal(await lease.renew('r', 'b', 'p9'), false, 'b renews nothing it does not hold');
    assert.deepEqual(await lease.claim('r', 'a'), { position: 'p1' }, 'a claims its own again');
    await lease.release('r', 'a', 'p2');
    assert.deepEqual(await lease.claim('r', 'b'), { position: 'p2' }, 'b takes it at once, where a stopped');
    assert.equal(await lease.renew('r', 'a', 'p3'), false, 'a released it: its renewal fails');
    assert.deepEqual(await lease.claim('other', 'a'), { position: undefined }, 'leases are per name');
  });

  it('passes to another holder once its time to live ran out since the last renewal', async () => {
    const lease = store.serviceLease(300);
    assert.ok(await lease.claim('short', 'a'));
    await lease.renew('short', 'a', 'p1');
    assert.equal(await lease.claim('short', 'b'), false);
    let taken: { position?: string } | false = false;
    for (let tries = 0; !taken && tries < 100; tries++) {
      await sleep(50);
      taken = await lease.claim('short', 'b');
    }
    assert.deepEqual(taken, { position: 'p1' });
    assert.equal(await lease.renew('short', 'a', 'p2'), false, 'a lost it');
  });
});
