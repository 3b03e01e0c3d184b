/** Who may read a document, write its data, name its author and download its files (DESIGN.md, Roles and Author). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeputiesOf } from '@docflow/contracts';
import { authorOf, canDownload, canRead, canWrite } from './access';
import {
  ALICE,
  APPROVAL_STAGE_1,
  APPROVAL_STAGE_2,
  AUTHOR,
  BOB,
  CAROL,
  created,
  DELETED,
  DEPUTY,
  doc,
  FILE,
  OUTSIDER,
  principal,
  REGISTRATION,
  rejects,
  workflowChanged,
} from './test-fixtures';

const NEW = doc(created(), workflowChanged(REGISTRATION));
const STAGE_1 = doc(created(), workflowChanged(APPROVAL_STAGE_1));
/** alice and bob answered; carol's task is open. */
const STAGE_2 = doc(created(), workflowChanged(APPROVAL_STAGE_2));
const GONE = doc(created(), workflowChanged(DELETED));
const ALICE_STANDS_IN: DeputiesOf = { [ALICE]: { id: DEPUTY, enabled: true } };

describe('canRead', () => {
  const cases = [
    { name: 'the author', doc: NEW, who: principal(AUTHOR), expect: true },
    {
      name: 'a holder of svcAdminDocsRW',
      doc: NEW,
      who: principal(OUTSIDER, 'svcAdminDocsRW'),
      expect: true,
    },
    { name: 'an auditor (svcAuditR)', doc: NEW, who: principal(OUTSIDER, 'svcAuditR'), expect: true },
    {
      name: 'a holder of svcAdminDocRWD only',
      doc: NEW,
      who: principal(OUTSIDER, 'svcAdminDocRWD'),
      expect: false,
    },
    { name: 'an outsider', doc: NEW, who: principal(OUTSIDER), expect: false },
    { name: 'a participant with an open task', doc: STAGE_1, who: principal(BOB), expect: true },
    { name: 'a participant whose task is answered', doc: STAGE_2, who: principal(ALICE), expect: true },
    {
      name: 'the enabled deputy of a participant',
      doc: STAGE_1,
      who: principal(DEPUTY),
      deputies: ALICE_STANDS_IN,
      expect: true,
    },
    {
      name: 'a disabled deputy',
      doc: STAGE_1,
      who: principal(DEPUTY),
      deputies: { [ALICE]: { id: DEPUTY, enabled: false } },
      expect: false,
    },
    { name: 'a deputy not looked up', doc: STAGE_1, who: principal(DEPUTY), expect: false },
    {
      name: 'nobody reads a deleted document, not its author',
      doc: GONE,
      who: principal(AUTHOR),
      expect: false,
    },
    {
      name: 'nor a holder of svcAdminDocsRW',
      doc: GONE,
      who: principal(OUTSIDER, 'svcAdminDocsRW'),
      expect: false,
    },
    {
      name: 'nobody reads a document that does not exist',
      doc: doc(),
      who: principal(AUTHOR),
      expect: false,
    },
  ];
  for (const c of cases) it(c.name, () => assert.equal(canRead(c.who, c.doc, c.deputies), c.expect));
});

describe('canWrite (e.g. validating recognition data)', () => {
  const cases = [
    { name: 'the author', doc: NEW, who: principal(AUTHOR), expect: true },
    {
      name: 'a holder of svcAdminDocsRW',
      doc: NEW,
      who: principal(OUTSIDER, 'svcAdminDocsRW'),
      expect: true,
    },
    { name: 'a user with an open task', doc: STAGE_2, who: principal(CAROL), expect: true },
    { name: 'a participant whose task is answered', doc: STAGE_2, who: principal(ALICE), expect: false },
    {
      name: 'a holder of svcAdminDocRW only',
      doc: NEW,
      who: principal(OUTSIDER, 'svcAdminDocRW'),
      expect: false,
    },
    { name: 'an outsider', doc: STAGE_1, who: principal(OUTSIDER), expect: false },
    {
      name: 'not an auditor (svcAuditR)',
      doc: STAGE_1,
      who: principal(OUTSIDER, 'svcAuditR'),
      expect: false,
    },
  ];
  for (const c of cases) it(c.name, () => assert.equal(canWrite(c.who, c.doc), c.expect));
});

describe('authorOf (a new document’s author)', () => {
  const cases = [
    { name: 'none named: the principal', who: principal(ALICE), named: undefined, expect: ALICE },
    { name: 'the principal names itself', who: principal(ALICE), named: ALICE, expect: ALICE },
    {
      name: 'another, with svcAdminDocsRW',
      who: principal(ALICE, 'svcAdminDocsRW'),
      named: BOB,
      expect: BOB,
    },
    {
      name: 'another, as an auditor (svcAuditR): 403',
      who: principal(ALICE, 'svcAuditR'),
      named: BOB,
      expect: 'forbidden',
    },
    {
      name: 'another, without svcAdminDocsRW: 403',
      who: principal(ALICE, 'svcAdminDocRWD'),
      named: BOB,
      expect: 'forbidden',
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      if (c.expect === 'forbidden') rejects('forbidden', () => authorOf(c.who, c.named));
      else assert.equal(authorOf(c.who, c.named), c.expect);
    });
});

describe('canDownload', () => {
  it('a file the document holds', () => assert.equal(canDownload(NEW, FILE.id), true));
  it('any other file', () => assert.equal(canDownload(NEW, 'f11e00000000000000000002'), false));
});
