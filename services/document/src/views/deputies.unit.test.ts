/** The deputies read model: rebuilt once from identity's pages, then kept by newer bus events only. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { AccountsPage } from '@docflow/contracts';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { createDeputiesReadModel } from './deputies';

const BOB = 'usr-00000000-0000-4000-8000-000000000b0b';
const CAROL = 'usr-00000000-0000-4000-8000-0000000ca201';
const ERIN = 'usr-00000000-0000-4000-8000-0000000e2140';
const DAVE = 'usr-00000000-0000-4000-8000-0000000da7e0';

const person = (id: string, deputy: { id: string; enabled: boolean } | null, revision: number) => ({
  id,
  kind: 'person' as const,
  active: true,
  roles: [],
  keyHash: null,
  deputy,
  revision,
});

/** A PersonUpdated naming `deputy` as it arrives from the bus, at `revision` of the account's stream. */
const deputyChanged = (userId: string, deputy: { id: string; enabled: boolean }, revision: number) => ({
  id: randomUUID(),
  key: userId,
  topic: 'test.identity',
  value: {
    id: randomUUID(),
    type: 'PersonUpdated',
    version: 1,
    streamId: `account-${userId}`,
    revision,
    recordedAt: '2026-11-26T00:00:00.000Z',
    data: { changes: { deputy } },
    metadata: { correlationId: 'c', timestamp: '2026-11-26T00:00:00.000Z' },
  },
});

describe('deputies read model', () => {
  it('is rebuilt page by page from identity, once; an older bus event changes nothing, a newer one does', async () => {
    const db = openLocalDb(':memory:');
    const deputies = createDeputiesReadModel(db);
    const pages: AccountsPage[] = [
      { accounts: [person(BOB, { id: ERIN, enabled: true }, 3)], next: 1 },
      { accounts: [person(CAROL, { id: ERIN, enabled: true }, 2), person(ERIN, null, 1)], next: null },
    ];
    const asked: number[] = [];
    const fetchPage = async (first: number) => {
      asked.push(first);
      return pages[first]!;
    };
    await deputies.rebuild(fetchPage);
    assert.deepEqual(deputies.standsInFor(ERIN).sort(), [BOB, CAROL].sort());
    await deputies.rebuild(fetchPage);
    assert.deepEqual(asked, [0, 1], 'rebuilt once');

    // Delivered late: bob's deputy as it was at revision 2, before the rebuild read revision 3.
    await deputies.handle(deputyChanged(BOB, { id: DAVE, enabled: true }, 2));
    assert.deepEqual(deputies.standsInFor(DAVE), []);
    await deputies.handle(deputyChanged(BOB, { id: DAVE, enabled: true }, 4));
    assert.deepEqual(deputies.standsInFor(DAVE), [BOB]);
    assert.deepEqual(deputies.standsInFor(ERIN), [CAROL]);
    // Removed (an empty id): the row keeps its revision against older events.
    await deputies.handle(deputyChanged(BOB, { id: '', enabled: false }, 5));
    await deputies.handle(deputyChanged(BOB, { id: DAVE, enabled: true }, 4));
    assert.deepEqual(deputies.standsInFor(DAVE), []);
    db.close();
  });

  it('a table of the layout before revisions is dropped, and the rebuild fills it', async () => {
    const db = openLocalDb(':memory:');
    db.exec(`CREATE TABLE view_deputies (user_id TEXT PRIMARY KEY, deputy_id TEXT NOT NULL, enabled INTEGER NOT NULL);
      INSERT INTO view_deputies VALUES ('${BOB}', '${DAVE}', 1);`);
    const deputies = createDeputiesReadModel(db);
    assert.deepEqual(deputies.standsInFor(DAVE), []);
    await deputies.rebuild(async () => ({
      accounts: [person(BOB, { id: ERIN, enabled: true }, 7)],
      next: null,
    }));
    assert.deepEqual(deputies.standsInFor(ERIN), [BOB]);
    db.close();
  });
});
