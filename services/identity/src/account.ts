/** The account aggregate: its state and `evolve`. Nothing here does I/O. */
import type { IdentityEvent, Role } from '@docflow/contracts';
import { parseIdentityEvent } from '@docflow/contracts';
import type { Aggregate, EventContext } from '@docflow/kit/eventsourcing';

export interface Deputy {
  id: string;
  enabled: boolean;
}

export interface AccountState {
  exists: boolean;
  id: string;
  kind: 'person' | 'service';
  email: string;
  name_first: string;
  name_last: string;
  name_mid: string;
  phone_office: string;
  phone_mobile: string;
  unit: string;
  deputy: Deputy | null;
  roles: Role[];
  active: boolean;
  apiKeyHash: string | null;
  pwdHash: string | null;
  created: string;
  lastModified: string;
  rev: number;
}

export const initialAccount: AccountState = {
  exists: false,
  id: '',
  kind: 'person',
  email: '',
  name_first: '',
  name_last: '',
  name_mid: '',
  phone_office: '',
  phone_mobile: '',
  unit: '',
  deputy: null,
  roles: [],
  active: false,
  apiKeyHash: null,
  pwdHash: null,
  created: '',
  lastModified: '',
  rev: 0,
};

function apply(state: AccountState, event: IdentityEvent): AccountState {
  switch (event.type) {
    case 'AccountCreated':
      return { ...state, ...event.data, exists: true };
    case 'ApiKeyIssued':
      return { ...state, apiKeyHash: event.data.keyHash };
    case 'PersonUpdated': {
      const { deputy, ...fields } = event.data.changes;
      return { ...state, ...fields, deputy: deputy === undefined ? state.deputy : deputy.id ? deputy : null };
    }
    case 'PasswordChanged':
      return { ...state, pwdHash: event.data.pwdHash };
    case 'AccountActivationChanged':
      return { ...state, active: event.data.active };
    case 'RolesChanged':
      return { ...state, roles: event.data.roles };
  }
}

export function evolveAccount(
  state: AccountState,
  event: IdentityEvent,
  context: EventContext,
): AccountState {
  const next = apply(state, event);
  const at = context.metadata.timestamp;
  return { ...next, created: state.created || at, lastModified: at, rev: context.revision };
}

export const accountAggregate: Aggregate<AccountState, IdentityEvent> = {
  initial: initialAccount,
  evolve: evolveAccount,
  parse: parseIdentityEvent,
};

export const accountStream = (id: string) => `account-${id}`;
