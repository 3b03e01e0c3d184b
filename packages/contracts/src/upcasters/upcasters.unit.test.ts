/**
 * Upcasting, as a table of events in every layout this repository ever wrote (each stored as version
 * 1, the only version written before versions were counted), named by the commit whose writer made
 * it: each reads in the current layout of its type and parses with the current schema.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuditCheckpoint } from '../audit';
import { DocumentEvents } from '../document-events';
import { EventEnvelope } from '../envelope';
import { StoredIdentityEvents } from '../identity-events';
import { RecognitionEvents } from '../recognition-events';
import { currentVersion, UnknownEventVersion, upcast } from './registry';

const EVENT_ID = '6f1c4a52-0d0e-4f55-9d7e-2b1f6f0c9a11';
const CHECKPOINT_ID = '0b9e7a3c-5b8e-4c7e-8e0e-41d3f3c2a9d4';
const PREVIOUS_ID = 'c1a2b3c4-d5e6-4f70-8a9b-0c1d2e3f4a5b';
const HASH_A = 'a3f1c2d4e5b60718293a4b5c6d7e8f9001122334455667788990aabbccddeeff';
const HASH_B = '5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8';
const ROOT = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const heads = [
  { streamId: 'docForm-6a1f0c2b3d4e5f6a7b8c9d0e', revision: 3, hash: HASH_A },
  { streamId: 'docForm-6a1f0c2b3d4e5f6a7b8c9d0f', revision: 1, hash: HASH_B },
];
const part = {
  _id: '6a1f0c2b3d4e5f6a7b8c9d10',
  pageIdxStart: 0,
  pageIdxEnd: 1,
  recoForm: { form: null, id: 'inv', name: 'Invoice' },
  confidence: 87.5,
  valuesByTags: { invoiceNo: 'INV-0042' },
};
const FILE_ID = '6a1f0c2b3d4e5f6a7b8c9d11';
const sealed = { kid: 'usr-1b2c3d4e-0000-4000-8000-00000000a11c', iv: 'cXZ3', tag: 'dGFn', ct: 'Y2lwaGVy' };

interface Row {
  name: string;
  type: string;
  data: Record<string, unknown>;
  /** The data in the current layout. */
  current: Record<string, unknown>;
  schema: { parse(data: unknown): unknown };
}

const rows: Row[] = [
  {
    name: 'AuditCheckpointed of 0e506f2: one event, every head, the Merkle root',
    type: 'AuditCheckpointed',
    data: { root: ROOT, streams: 2, heads },
    current: {
      checkpointId: EVENT_ID,
      part: 1,
      parts: 1,
      root: ROOT,
      streams: 2,
      heads,
      previousCheckpointId: null,
      full: true,
    },
    schema: AuditCheckpoint,
  },
  {
    name: 'AuditCheckpointed of 52867b3: every head in parts sharing a checkpoint id',
    type: 'AuditCheckpointed',
    data: { checkpointId: CHECKPOINT_ID, part: 2, parts: 2, root: ROOT, streams: 5, heads },
    current: {
      checkpointId: CHECKPOINT_ID,
      part: 2,
      parts: 2,
      root: ROOT,
      streams: 5,
      heads,
      previousCheckpointId: null,
      full: true,
    },
    schema: AuditCheckpoint,
  },
  {
    name: 'AuditCheckpointed of b64c462: changed heads after a previous checkpoint (the current layout)',
    type: 'AuditCheckpointed',
    data: {
      checkpointId: CHECKPOINT_ID,
      previousCheckpointId: PREVIOUS_ID,
      part: 1,
      parts: 1,
      root: ROOT,
      streams: 9,
      heads,
    },
    current: {
      checkpointId: CHECKPOINT_ID,
      previousCheckpointId: PREVIOUS_ID,
      part: 1,
      parts: 1,
      root: ROOT,
      streams: 9,
      heads,
    },
    schema: AuditCheckpoint,
  },
  {
    name: 'FileRecognized of 76d8e97: no text',
    type: 'FileRecognized',
    data: { fileId: FILE_ID, parts: [part], pageCount: 2 },
    current: { fileId: FILE_ID, parts: [part], pageCount: 2 },
    schema: RecognitionEvents.FileRecognized,
  },
  {
    name: 'FileRecognized of 73fbdae: with the text',
    type: 'FileRecognized',
    data: { fileId: FILE_ID, parts: [part], pageCount: 2, text: 'Invoice No INV-0042\nTotal 12.00' },
    current: { fileId: FILE_ID, parts: [part], pageCount: 2, text: 'Invoice No INV-0042\nTotal 12.00' },
    schema: RecognitionEvents.FileRecognized,
  },
  {
    name: 'RecognitionRecorded of 76d8e97 (the document stream): no text',
    type: 'RecognitionRecorded',
    data: { fileId: FILE_ID, parts: [part], pageCount: 2, sourceId: EVENT_ID },
    current: { fileId: FILE_ID, parts: [part], pageCount: 2, sourceId: EVENT_ID },
    schema: DocumentEvents.RecognitionRecorded,
  },
  {
    name: 'AccountCreated of 9b23833: personal fields in clear',
    type: 'AccountCreated',
    data: {
      id: 'usr-1b2c3d4e-0000-4000-8000-00000000a11c',
      kind: 'person',
      email: 'alice@example.com',
      name_first: 'Alice',
      name_last: 'Liddell',
      roles: [],
      active: true,
    },
    current: {
      id: 'usr-1b2c3d4e-0000-4000-8000-00000000a11c',
      kind: 'person',
      email: 'alice@example.com',
      name_first: 'Alice',
      name_last: 'Liddell',
      roles: [],
      active: true,
    },
    schema: StoredIdentityEvents.AccountCreated,
  },
  {
    name: 'AccountCreated of 3a3d319: personal fields sealed',
    type: 'AccountCreated',
    data: { id: sealed.kid, kind: 'person', roles: ['svcAuditR'], active: true, sealed },
    current: { id: sealed.kid, kind: 'person', roles: ['svcAuditR'], active: true, sealed },
    schema: StoredIdentityEvents.AccountCreated,
  },
  {
    name: 'PersonUpdated of 9b23833: names and a deputy in clear',
    type: 'PersonUpdated',
    data: { changes: { name_last: 'Hargreaves', deputy: { id: sealed.kid, enabled: true } } },
    current: { changes: { name_last: 'Hargreaves', deputy: { id: sealed.kid, enabled: true } } },
    schema: StoredIdentityEvents.PersonUpdated,
  },
  {
    name: 'PasswordChanged of 9b23833: the scrypt hash in clear',
    type: 'PasswordChanged',
    data: { pwdHash: 'scrypt$16384$8$1$c2FsdA$aGFzaA' },
    current: { pwdHash: 'scrypt$16384$8$1$c2FsdA$aGFzaA' },
    schema: StoredIdentityEvents.PasswordChanged,
  },
];

describe('upcast', () => {
  for (const row of rows)
    it(`${row.name}: reads in the current layout, which parses`, () => {
      const read = upcast({ id: EVENT_ID, type: row.type, version: 1, data: row.data });
      assert.equal(read.version, currentVersion(row.type));
      assert.deepEqual(read.data, row.current);
      row.schema.parse(read.data);
    });

  it('every type of the table has a version above 1: its writers stamp it', () => {
    for (const type of new Set(rows.map((r) => r.type))) assert.equal(currentVersion(type), 2, type);
    assert.equal(currentVersion('DocumentCreated'), 1, 'a type never changed');
  });

  it('an event of the current version is the very same object', () => {
    const event = { id: EVENT_ID, type: 'AuditCheckpointed', version: 2, data: rows[2]!.data };
    assert.equal(upcast(event), event);
  });

  it('a version newer than this release knows is refused, not misread', () => {
    assert.throws(
      () => upcast({ id: EVENT_ID, type: 'FileRecognized', version: 3, data: {} }),
      UnknownEventVersion,
    );
  });
});

describe('EventEnvelope from the bus', () => {
  it('parses an old event upcast: every consumer reads the current layout', () => {
    const envelope = EventEnvelope.parse({
      id: EVENT_ID,
      type: 'AuditCheckpointed',
      version: 1,
      streamId: 'audit-checkpoints',
      revision: 1,
      recordedAt: '2026-11-23T10:00:00.000Z',
      data: rows[0]!.data,
      metadata: { correlationId: 'c', timestamp: '2026-11-23T10:00:00.000Z' },
    });
    assert.equal(envelope.version, 2);
    assert.deepEqual(envelope.data, rows[0]!.current);
  });
});
