import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LiveSession, SessionEvent } from '@docflow/contracts';
import { decideEndSession, evolveSession, initialSession, liveSession, sessionsCutOff } from './session';

const PERSON = 'usr-0a000000-0000-4000-8000-000000000001';
const start: Omit<LiveSession, 'started'> = {
  accountId: PERSON,
  tokenHash: '0'.repeat(64),
  from: '127.0.0.1',
  userAgent: 'test',
  expiresAt: '2026-01-02T00:00:00.000Z',
};
const given = (...events: [SessionEvent, string][]) =>
  events.reduce(
    (s, [e, at], i) =>
      evolveSession(s, e, { revision: i + 1, metadata: { correlationId: 'c', timestamp: at } }),
    initialSession,
  );
const started = given([{ type: 'SessionStarted', data: start }, '2026-01-01T10:00:00.000Z']);
const active = { active: true, erased: false };
const event = (type: string, data: Record<string, unknown>, timestamp: string) => ({
  type,
  data,
  metadata: { timestamp },
});

describe('a session at identity', () => {
  it('is live from its start until it ends', () => {
    assert.deepEqual(liveSession(started, active, undefined), {
      ...start,
      started: '2026-01-01T10:00:00.000Z',
    });
    const [ended] = decideEndSession({ reason: 'logout', by: PERSON, from: 'x', userAgent: 'y' }, started);
    assert.equal(liveSession(given([ended!, 't']), active, undefined), undefined);
    assert.throws(() =>
      decideEndSession({ reason: 'logout', by: PERSON, from: 'x', userAgent: 'y' }, initialSession),
    );
  });

  it('is not live once its person is inactive or erased, or was deactivated after its start', () => {
    assert.equal(liveSession(started, { active: false, erased: false }, undefined), undefined);
    assert.equal(liveSession(started, { active: false, erased: true }, undefined), undefined);
    const history = [
      event('AccountCreated', { active: true }, '2026-01-01T09:00:00.000Z'),
      event('AccountActivationChanged', { active: false }, '2026-01-01T11:00:00.000Z'),
      event('AccountActivationChanged', { active: true }, '2026-01-01T12:00:00.000Z'),
    ];
    assert.equal(sessionsCutOff(history), '2026-01-01T11:00:00.000Z');
    assert.equal(liveSession(started, active, sessionsCutOff(history)), undefined);
    assert.equal(sessionsCutOff(history.slice(0, 1)), undefined);
    assert.ok(liveSession(started, active, '2026-01-01T09:30:00.000Z'), 'a deactivation before its start');
  });
});
