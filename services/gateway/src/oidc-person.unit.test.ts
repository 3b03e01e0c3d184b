import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { personToCreate } from './oidc-person';

describe('the person a provider may create', () => {
  const p = {
    rolesClaim: 'groups',
    roleMap: {
      admins: ['svcAdminSysRW' as const],
      auditors: ['svcAuditR' as const, 'svcAdminSysRW' as const],
    },
  };

  it('takes the token’s names, and the roles its groups map to (once each; unmapped groups give none)', () => {
    const claims = { given_name: 'Erin', family_name: 'Admin', groups: ['admins', 'auditors', 'staff', 7] };
    assert.deepEqual(personToCreate(p, claims, 'erin@example.com'), {
      name_first: 'Erin',
      name_last: 'Admin',
      roles: ['svcAdminSysRW', 'svcAuditR'],
    });
  });

  it('names a person the token leaves unnamed by the e-mail, and gives no role without the claim', () => {
    assert.deepEqual(personToCreate(p, { groups: 'admins' }, 'sam@example.com'), {
      name_first: 'sam',
      name_last: '-',
      roles: [],
    });
  });

  it('is not fooled by a group named after an object’s own members', () => {
    assert.deepEqual(
      personToCreate(p, { given_name: 'X', groups: ['constructor', '__proto__'] }, 'x@e.com').roles,
      [],
    );
  });
});
