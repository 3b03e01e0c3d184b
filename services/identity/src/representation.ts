/** The contract's shapes of an account: Person (public API) and Account (admin API). */
import type { Account, Person } from '@docflow/contracts';
import type { AccountState } from './account';

const meta = (s: AccountState) => ({ _created: s.created, _lastmodified: s.lastModified, _rev: s.rev });

export function toPerson(s: AccountState): Person {
  return {
    _meta: meta(s),
    _id_sys: s.id,
    email: s.email,
    name_first: s.name_first,
    name_last: s.name_last,
    name_mid: s.name_mid,
    phone_office: s.phone_office,
    phone_mobile: s.phone_mobile,
    unit: s.unit,
    deputy: {
      id: s.deputy?.id ?? '',
      enabled: s.deputy?.enabled ? 'true' : 'false',
      ...(s.deputy?.from && s.deputy.to ? { from: s.deputy.from, to: s.deputy.to } : {}),
    },
  };
}

export function toAccount(s: AccountState): Account {
  return {
    _meta: meta(s),
    _id_sys: s.id,
    kind: s.kind,
    email: s.email,
    name_first: s.name_first,
    name_last: s.name_last,
    roles: s.roles,
    active: s.active,
  };
}
