import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SessionOptions } from './config';
import { sessionLive } from './session-auth';
import type { SessionRecord } from './sessions-read-model';

const OPTIONS: SessionOptions = { cookieName: 's', idleMs: 1000, maxMs: 10_000, secure: 'auto' };
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const session: SessionRecord = {
  id: 'a'.repeat(24),
  accountId: 'usr-0a000000-0000-4000-8000-000000000001',
  started: new Date(T0).toISOString(),
  expires: new Date(T0 + OPTIONS.maxMs).toISOString(),
  lastUsed: T0,
  from: '127.0.0.1',
  userAgent: 'test',
};

describe('sessionLive: the idle and the absolute time-out', () => {
  it('is live while used within the idle time, until the absolute time-out', () => {
    assert.equal(sessionLive(session, T0 + 999, OPTIONS), true);
    assert.equal(sessionLive(session, T0 + 1000, OPTIONS), false, 'idle');
    const used = { ...session, lastUsed: T0 + 9500 };
    assert.equal(sessionLive(used, T0 + 9999, OPTIONS), true);
    assert.equal(sessionLive(used, T0 + 10_000, OPTIONS), false, 'past its absolute time-out');
  });
});
