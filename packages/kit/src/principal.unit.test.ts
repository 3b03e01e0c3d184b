/**
 * principalOf: run-as never adds a role the service account does not hold (DESIGN.md "Run-as"), while
 * the person stays the subject whose document rights count.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ROLES } from '@docflow/contracts';
import { principalOf } from './principal';

const SERVICE = 'usr-5e000000-0000-4000-8000-000000000001';
const PERSON = 'usr-0e000000-0000-4000-8000-000000000002';

describe('principalOf', () => {
  it('without run-as: the service account is the subject, with its own roles', () => {
    assert.deepEqual(principalOf({ id: SERVICE, roles: ['svcAuditR'] }), {
      account: SERVICE,
      subject: SERVICE,
      roles: ['svcAuditR'],
    });
  });

  it('a role-less service account running as an administrator: the person is the subject, with no role', () => {
    assert.deepEqual(principalOf({ id: SERVICE, roles: [] }, { id: PERSON, roles: [...ROLES] }), {
      account: SERVICE,
      runAs: PERSON,
      subject: PERSON,
      roles: [],
    });
  });

  it('an administrative service account running as a plain person: no role', () => {
    assert.deepEqual(principalOf({ id: SERVICE, roles: [...ROLES] }, { id: PERSON, roles: [] }).roles, []);
  });

  it('with run-as, each role counts only where both hold it', () => {
    const principal = principalOf(
      { id: SERVICE, roles: ['svcAdminSysRW', 'svcAdminDocRW', 'svcAuditR'] },
      { id: PERSON, roles: ['svcAdminSysRW', 'svcAdminDocsRW', 'svcAuditR'] },
    );
    assert.deepEqual(principal.roles, ['svcAdminSysRW', 'svcAuditR']);
    assert.equal(principal.subject, PERSON);
  });
});
