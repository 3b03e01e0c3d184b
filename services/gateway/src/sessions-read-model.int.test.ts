import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { DeliveredMessage } from '@docflow/bus';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { createSessionsReadModel } from './sessions-read-model';

const ALICE = 'usr-0a000000-0000-4000-8000-000000000001';
const HASH = (n: number) => n.toString(16).padStart(64, '0');

function message(
  streamId: string,
  type: string,
  data: Record<string, unknown>,
  timestamp: string,
): DeliveredMessage {
  return {
    id: randomUUID(),
    key: streamId,
    topic: 'test',
    value: {
      id: randomUUID(),
      type,
      version: 1,
      streamId,
      revision: 1,
      recordedAt: timestamp,
      data,
      metadata: { correlationId: 'c', timestamp },
    },
  };
}
const started = (session: string, n: number, at: string) =>
  message(
    `session-${session}`,
    'SessionStarted',
    {
      accountId: ALICE,
      tokenHash: HASH(n),
      from: '127.0.0.1',
      userAgent: 'test',
      expiresAt: '2999-01-01T00:00:00.000Z',
    },
    at,
  );
const activation = (active: boolean, at: string) =>
  message(`account-${ALICE}`, 'AccountActivationChanged', { active }, at);

describe('sessions read model', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-sessions-'));
  const db = openLocalDb(join(dir, 'local.db'));
  const sessions = createSessionsReadModel(db);
  after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a deactivation ends the sessions started before it, even one whose start arrives after it', async () => {
    await sessions.handleSessionEvent(started('a'.repeat(24), 1, '2026-01-01T10:00:00.000Z'));
    await sessions.handleAccountEvent(activation(false, '2026-01-01T11:00:00.000Z'));
    assert.equal(sessions.byTokenHash(HASH(1)), undefined);
    // The topics keep no order between them: a start from before the deactivation arrives late.
    await sessions.handleSessionEvent(started('b'.repeat(24), 2, '2026-01-01T10:30:00.000Z'));
    await sessions.handleAccountEvent(activation(true, '2026-01-01T12:00:00.000Z'));
    assert.equal(sessions.byTokenHash(HASH(2)), undefined, 'a reactivation revives no session');
    await sessions.handleSessionEvent(started('c'.repeat(24), 3, '2026-01-01T12:30:00.000Z'));
    assert.equal(sessions.byTokenHash(HASH(3))?.id, 'c'.repeat(24), 'a sign-in after it starts a session');
    assert.deepEqual(
      sessions.ofAccount(ALICE).map((s) => s.id),
      ['c'.repeat(24)],
    );
  });

  it('forgets a session past its absolute time-out at the next sign-in', async () => {
    const expired = started('d'.repeat(24), 4, '2026-01-01T12:40:00.000Z');
    (expired.value as { data: { expiresAt: string } }).data.expiresAt = '2026-01-01T13:00:00.000Z';
    await sessions.handleSessionEvent(expired);
    assert.ok(sessions.byId('d'.repeat(24)));
    await sessions.handleSessionEvent(started('e'.repeat(24), 5, '2026-01-01T12:50:00.000Z'));
    assert.equal(sessions.byId('d'.repeat(24)), undefined);
    assert.ok(sessions.byId('e'.repeat(24)));
  });

  it('applies a redelivered event once, and records every sign-in for auditors', async () => {
    const end = message(
      `session-${'c'.repeat(24)}`,
      'SessionEnded',
      { accountId: ALICE, reason: 'logout', by: ALICE, from: '127.0.0.9', userAgent: 'test' },
      '2026-01-01T13:00:00.000Z',
    );
    await sessions.handleSessionEvent(end);
    await sessions.handleSessionEvent(end);
    assert.equal(sessions.byId('c'.repeat(24)), undefined);
    const { total, records } = sessions.signIns({ account: ALICE, limit: 10, offset: 0 });
    assert.equal(total, 6);
    assert.deepEqual(
      records.map((r) => [r.type, r.from]),
      [
        ['SignedOut', '127.0.0.9'],
        ['SignedIn', '127.0.0.1'],
        ['SignedIn', '127.0.0.1'],
        ['SignedIn', '127.0.0.1'],
        ['SignedIn', '127.0.0.1'],
        ['SignedIn', '127.0.0.1'],
      ],
    );
  });
});
