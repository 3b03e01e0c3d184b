/** Who may manage a document's workflow (contract, Authentication 3–4; DESIGN.md, Roles and Run-as). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canManage, type ManagePrincipal } from './access';
import { AUTHOR, ERIN, given, REGISTRATION } from './test-fixtures';

const SVC = 'usr-00000000-0000-4000-8000-00000000005c';
const user = (subject: string, ...roles: string[]): ManagePrincipal => ({
  subject,
  roles,
  isServiceAccount: false,
});
const service = (subject: string, ...roles: string[]): ManagePrincipal => ({
  subject,
  roles,
  isServiceAccount: true,
});

const ALL = [100, 101, 102, 103, 104, 105, 106, 107, 108, 110, 111];
const ALL_BUT_DELETE = ALL.filter((t) => t !== 111);

/** Each row: this principal, on a document authored by `author`, may use exactly these actions. */
const CASES: Array<{ who: string; principal: ManagePrincipal; allowed: number[] }> = [
  { who: 'the author (run-as user)', principal: user(AUTHOR), allowed: ALL },
  { who: 'the author is the service account itself', principal: service(AUTHOR), allowed: ALL },
  { who: 'another user without roles', principal: user(ERIN), allowed: [] },
  { who: 'another user with svcAdminDocRW', principal: user(ERIN, 'svcAdminDocRW'), allowed: ALL_BUT_DELETE },
  { who: 'another user with svcAdminDocRWD', principal: user(ERIN, 'svcAdminDocRWD'), allowed: ALL },
  { who: 'another user with svcAdminDocsRW only', principal: user(ERIN, 'svcAdminDocsRW'), allowed: [] },
  { who: 'another user with svcAdminSysRW only', principal: user(ERIN, 'svcAdminSysRW'), allowed: [] },
  {
    who: 'a service account with svcAdminDocRW but not svcAdminDocsRW',
    principal: service(SVC, 'svcAdminDocRW'),
    allowed: [],
  },
  {
    who: 'a service account with svcAdminDocsRW only',
    principal: service(SVC, 'svcAdminDocsRW'),
    allowed: [],
  },
  {
    who: 'a service account with svcAdminDocsRW and svcAdminDocRW',
    principal: service(SVC, 'svcAdminDocsRW', 'svcAdminDocRW'),
    allowed: ALL_BUT_DELETE,
  },
  {
    who: 'a service account with svcAdminDocsRW and svcAdminDocRWD',
    principal: service(SVC, 'svcAdminDocsRW', 'svcAdminDocRWD'),
    allowed: ALL,
  },
];

describe('canManage', () => {
  const doc = given(REGISTRATION);
  for (const c of CASES)
    it(`${c.who}: ${c.allowed.length === ALL.length ? 'every action' : c.allowed.length ? `all but 111` : 'nothing'}`, () => {
      assert.deepEqual(
        ALL.filter((t) => canManage(c.principal, doc, t)),
        c.allowed,
      );
    });
});
