/** The hash chain: RFC 8785 canonical form, chaining, and the first bad revision of a damaged stream. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { type ChainedEvent, canonicalEvent, eventHash, GENESIS_HASH, verifyChain } from './chain';

const base = { time: '2026-11-24T01:00:00.000Z', actor: 'usr-00000000-0000-0000-0000-000000000001' };

function chain(count: number): ChainedEvent[] {
  const out: ChainedEvent[] = [];
  let prev = GENESIS_HASH;
  for (let revision = 1; revision <= count; revision++) {
    const event = {
      ...base,
      revision,
      type: 'DocumentFieldsUpdated',
      data: { n: revision, z: 'é', a: [1.5] },
    };
    const hash = eventHash(prev, event);
    out.push({ ...event, prevHash: prev, hash });
    prev = hash;
  }
  return out;
}

describe('canonicalEvent (RFC 8785)', () => {
  it('sorts keys, writes numbers the ECMAScript way, absent fields as null', () => {
    const text = canonicalEvent({ revision: 1, type: 'T', time: 't', data: { b: 1e21, a: 'x', c: 1.0 } });
    assert.equal(
      text,
      '{"actor":null,"causationId":null,"correlationId":null,"data":{"a":"x","b":1e+21,"c":1},"revision":1,"runAs":null,"time":"t","type":"T"}',
    );
  });

  it('hash = SHA-256(prevHash ‖ canonical JSON)', () => {
    const event = { revision: 1, type: 'T', time: 't', data: {} };
    const expected = createHash('sha256')
      .update(GENESIS_HASH + canonicalEvent(event))
      .digest('hex');
    assert.equal(eventHash(GENESIS_HASH, event), expected);
  });
});

describe('verifyChain', () => {
  it('an untouched chain verifies, its head the last hash', () => {
    const events = chain(4);
    assert.deepEqual(verifyChain(events), {
      valid: true,
      revisions: 4,
      head: events[3]!.hash,
      firstBadRevision: null,
      reason: null,
    });
  });

  it('an edited event is named', () => {
    const events = chain(4);
    events[2] = { ...events[2]!, data: { n: 99 } };
    const verdict = verifyChain(events);
    assert.equal(verdict.valid, false);
    assert.equal(verdict.firstBadRevision, 3);
    assert.match(verdict.reason!, /does not match its hash/);
  });

  it('a removed event is named as missing', () => {
    const events = chain(4);
    events.splice(1, 1);
    const verdict = verifyChain(events);
    assert.equal(verdict.firstBadRevision, 2);
    assert.match(verdict.reason!, /revision 2 is missing/);
  });

  it('an event re-hashed after editing breaks the link to the next one', () => {
    const events = chain(3);
    const forged = { ...events[1]!, data: { n: 99 } };
    forged.hash = eventHash(forged.prevHash!, forged);
    events[1] = forged;
    assert.equal(verifyChain(events).firstBadRevision, 3);
  });

  it('an event without a hash is named', () => {
    const events = chain(2);
    events[1] = { ...events[1]!, hash: undefined };
    assert.equal(verifyChain(events).firstBadRevision, 2);
  });
});
