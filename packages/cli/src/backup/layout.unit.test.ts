import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COPY_ORDER, inOrder, isNotData, kindOf, SNAPSHOT_ORDER } from './layout';

const BLOB = 'ab'.padEnd(64, '0');

describe('backup layout: what a data directory holds', () => {
  const cases: Array<[string, ReturnType<typeof kindOf>]> = [
    ['identity/events.db', 'event-store'],
    ['identity/keys.db', 'key-store'],
    ['identity/local.db', 'read-model'],
    ['gateway-g1/local.db', 'read-model'],
    [`files/blobs/sha256/ab/${BLOB}`, 'blob'],
    // a blob in the wrong fan-out directory, or not named by a SHA-256
    [`files/blobs/sha256/cd/${BLOB}`, undefined],
    ['files/blobs/sha256/ab/abc', undefined],
    ['identity/events.db-wal', undefined],
    ['identity/.lock', undefined],
    ['events.db', undefined],
    ['a/b/events.db', undefined],
    ['../identity/events.db', undefined],
    ['/etc/events.db', undefined],
    ['identity/../keys.db', undefined],
  ];
  for (const [path, kind] of cases)
    it(`${path}: ${kind ?? 'not data'}`, () => assert.equal(kindOf(path), kind));

  it('leaves out WAL, shared memory, the lock and uploads in progress, without a word', () => {
    for (const path of [
      'document/events.db-wal',
      'document/local.db-shm',
      'document/.lock',
      'files/blobs/tmp/1.x',
    ])
      assert.equal(isNotData(path), true, path);
    assert.equal(isNotData('document/notes.txt'), false);
  });
});

describe('backup order', () => {
  const dataDir = [
    'webhooks/local.db',
    'identity/keys.db',
    'identity/events.db',
    'document/events.db',
    `files/blobs/sha256/ab/${BLOB}`,
    'identity/local.db',
    'document/local.db',
  ];

  it('pins read models first, then event stores, then key stores; no blob is a snapshot', () => {
    assert.deepEqual(inOrder(dataDir, SNAPSHOT_ORDER), [
      'document/local.db',
      'identity/local.db',
      'webhooks/local.db',
      'document/events.db',
      'identity/events.db',
      'identity/keys.db',
    ]);
  });

  it("a service's relay checkpoint (local.db) is pinned before its events, a key store after identity's events", () => {
    const order = inOrder(dataDir, SNAPSHOT_ORDER);
    for (const service of ['document', 'identity'])
      assert.ok(order.indexOf(`${service}/local.db`) < order.indexOf(`${service}/events.db`), service);
    assert.ok(order.indexOf('identity/events.db') < order.indexOf('identity/keys.db'));
  });

  it('copies the key store first (its snapshot is let go soonest), then event stores, then read models', () => {
    assert.deepEqual(inOrder(dataDir, COPY_ORDER), [
      'identity/keys.db',
      'document/events.db',
      'identity/events.db',
      'document/local.db',
      'identity/local.db',
      'webhooks/local.db',
    ]);
  });
});
