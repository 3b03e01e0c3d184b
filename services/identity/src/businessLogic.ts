/** Identity commands, one pure decision each: `(command, state) → events`, or a typed rejection. */
import type { AccountCreate, IdentityEvent, Role } from '@docflow/contracts';
import { ADMIN_ACCOUNT_ID, PERSON_UPDATE_FIELDS, ROLES, rejections } from '@docflow/contracts';
import type { AccountState, Deputy } from './account';

export interface CreateAccount {
  id: string;
  input: AccountCreate;
  /** SHA-256 of the new API key (service accounts only). */
  apiKeyHash?: string;
}

export function decideCreateAccount(cmd: CreateAccount, state: AccountState): IdentityEvent[] {
  if (state.exists) throw rejections.conflict(`account ${cmd.id} exists already`);
  const { kind, email, name_first, name_last, roles, active } = cmd.input;
  const events: IdentityEvent[] = [
    { type: 'AccountCreated', data: { id: cmd.id, kind, email, name_first, name_last, roles, active } },
  ];
  if (kind === 'service') {
    if (!cmd.apiKeyHash) throw new Error('a service account needs an API key hash');
    events.push({ type: 'ApiKeyIssued', data: { keyHash: cmd.apiKeyHash } });
  }
  return events;
}

/** Person fields a POST /person may change, already validated. */
export interface PersonChanges {
  name_first?: string;
  name_last?: string;
  name_mid?: string;
  phone_office?: string;
  phone_mobile?: string;
  unit?: string;
  /** `id: ''` removes the deputy. */
  deputy?: Deputy;
}

export interface UpdatePerson {
  changes: PersonChanges;
  /** A fresh argon2id hash when a password was given. */
  pwdHash?: string;
  /** The deputy named in `changes`, as it exists now (checked by the caller's read of its stream). */
  deputyAccount?: AccountState;
}

type ChangeKey = keyof PersonChanges;
const PERSON_FIELDS: readonly ChangeKey[] = PERSON_UPDATE_FIELDS;

const sameDeputy = (a: Deputy | null, b: Deputy) =>
  (a === null && b.id === '') ||
  (a !== null && a.id === b.id && a.enabled === b.enabled && a.from === b.from && a.to === b.to);

/** Only what differs becomes an event; an update that changes nothing appends nothing. */
export function decideUpdatePerson(cmd: UpdatePerson, state: AccountState): IdentityEvent[] {
  if (!state.exists || state.kind !== 'person')
    throw rejections.notFound(`no person ${state.id || ''}`.trim());
  refuseErased(state);
  const { changes } = cmd;
  const diff: Record<string, unknown> = {};
  for (const key of PERSON_FIELDS) {
    const value = changes[key];
    if (value !== undefined && value !== state[key]) diff[key] = value;
  }
  if (changes.deputy) {
    const deputy = changes.deputy;
    if (deputy.id === state.id) throw rejections.invalid('a person cannot be their own deputy');
    if (deputy.id && (!cmd.deputyAccount?.exists || cmd.deputyAccount.kind !== 'person'))
      throw rejections.invalid(`deputy ${deputy.id} is not a known person`);
    if (!sameDeputy(state.deputy, deputy)) diff.deputy = deputy.id ? deputy : { id: '', enabled: false };
  }
  const events: IdentityEvent[] = [];
  if (Object.keys(diff).length > 0) events.push({ type: 'PersonUpdated', data: { changes: diff } });
  if (cmd.pwdHash) events.push({ type: 'PasswordSet', data: { pwdHash: cmd.pwdHash } });
  return events;
}

export interface ChangeAccount {
  active?: boolean;
  roles?: Role[];
}

/**
 * The bootstrap account `admin` stays active with every role (DESIGN.md): it is the way back in when
 * no other administrator is left. As it always holds `svcAdminSysRW`, an active holder of that role
 * always exists, so no other account's change can lock the administrators out.
 */
function keepBootstrapAdmin(cmd: ChangeAccount, state: AccountState): void {
  if (state.id !== ADMIN_ACCOUNT_ID) return;
  if (cmd.active === false)
    throw rejections.conflict('the bootstrap account admin cannot be deactivated: it is the way back in');
  const missing = ROLES.filter((role) => cmd.roles && !cmd.roles.includes(role));
  if (missing.length > 0)
    throw rejections.conflict(
      `the bootstrap account admin keeps every role: this change would remove ${missing.join(', ')}`,
    );
}

/** An erased account stays as it is: inactive, its personal data gone. */
function refuseErased(state: AccountState): void {
  if (state.erased) throw rejections.conflict(`account ${state.id} was erased`);
}

export function decideChangeAccount(cmd: ChangeAccount, state: AccountState): IdentityEvent[] {
  if (!state.exists) throw rejections.notFound('no such account');
  keepBootstrapAdmin(cmd, state);
  refuseErased(state);
  const events: IdentityEvent[] = [];
  if (cmd.active !== undefined && cmd.active !== state.active)
    events.push({ type: 'AccountActivationChanged', data: { active: cmd.active } });
  if (cmd.roles !== undefined) {
    const roles = [...new Set(cmd.roles)].sort();
    if (roles.join() !== [...state.roles].sort().join())
      events.push({ type: 'RolesChanged', data: { roles } });
  }
  return events;
}

/**
 * Erasure: the account is deactivated and its key is deleted (by the caller, after the append), so
 * its personal data reads as erased. The event names no personal data; who and when are in its
 * metadata. Erasing an erased account appends nothing (the caller deletes the key again, so an
 * erasure interrupted between the append and the deletion completes on retry).
 */
export function decideEraseAccount(state: AccountState): IdentityEvent[] {
  if (!state.exists) throw rejections.notFound('no such account');
  if (state.id === ADMIN_ACCOUNT_ID)
    throw rejections.conflict('the bootstrap account admin cannot be erased: it is the way back in');
  if (state.erased) return [];
  const events: IdentityEvent[] = [];
  if (state.active) events.push({ type: 'AccountActivationChanged', data: { active: false } });
  events.push({ type: 'AccountErased', data: {} });
  return events;
}

/**
 * Bootstrap, at every start: the `admin` service account exists, active, with every role (which
 * also repairs one an older version let be stripped). `keyHash` (re)keys it; without one (no
 * DOCFLOW_ADMIN_KEY after the first start) its key stays.
 */
export function decideBootstrapAdmin(cmd: { keyHash?: string }, state: AccountState): IdentityEvent[] {
  if (!state.exists) {
    if (!cmd.keyHash) throw new Error('the first bootstrap needs a key');
    return decideCreateAccount(
      {
        id: ADMIN_ACCOUNT_ID,
        input: {
          kind: 'service',
          email: 'admin@docflow.local',
          name_first: 'docflow',
          name_last: 'admin',
          roles: [...ROLES],
          active: true,
        },
        apiKeyHash: cmd.keyHash,
      },
      state,
    );
  }
  const events = decideChangeAccount({ active: true, roles: [...ROLES] }, state);
  if (cmd.keyHash && state.apiKeyHash !== cmd.keyHash)
    events.push({ type: 'ApiKeyIssued', data: { keyHash: cmd.keyHash } });
  return events;
}
