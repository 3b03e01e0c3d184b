/** The account aggregate: its state and `evolve`. Nothing here does I/O. */
import {
  type IdentityEvent,
  type PersonalTokenFacts,
  PRIVATE_IDENTITY_EVENTS,
  type Role,
} from '@docflow/contracts';
import type { Aggregate, EventContext } from '@docflow/kit/eventsourcing';
import type { KeyStore } from './key-store';
import { ERASED, openEvent, sealEvent } from './personal-data';

export interface Deputy {
  id: string;
  enabled: boolean;
  /** An absence (docs/decisions.md, "Absences"): new tasks go to the deputy in [from, to). */
  from?: string;
  to?: string;
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
  /** The person's key was deleted: their personal data reads as ERASED. */
  erased: boolean;
  apiKeyHash: string | null;
  pwdHash: string | null;
  /** The person's live personal access tokens, oldest first. */
  tokens: PersonalTokenFacts[];
  created: string;
  lastModified: string;
  rev: number;
  /** The revision of the newest event the bus carries: what the gateway's read model can reach. */
  publishedRev: number;
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
  erased: false,
  apiKeyHash: null,
  pwdHash: null,
  tokens: [],
  created: '',
  lastModified: '',
  rev: 0,
  publishedRev: 0,
};

function apply(state: AccountState, event: IdentityEvent, at: string): AccountState {
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
    case 'PasswordSet':
      return { ...state, pwdHash: event.data.pwdHash };
    case 'AccountActivationChanged':
      // A deactivation ends every token for good, as it ends every session.
      return { ...state, active: event.data.active, tokens: event.data.active ? state.tokens : [] };
    case 'RolesChanged':
      return { ...state, roles: event.data.roles };
    case 'AccountErased':
      // Also over values an event written before sealing still holds in clear.
      return {
        ...state,
        email: ERASED,
        name_first: ERASED,
        name_last: ERASED,
        name_mid: ERASED,
        phone_office: ERASED,
        phone_mobile: ERASED,
        unit: ERASED,
        pwdHash: null,
        tokens: [],
        active: false,
        erased: true,
      };
    case 'PersonalTokenIssued': {
      const { tokenId: id, name, keyHash, expiresAt: expires } = event.data;
      return { ...state, tokens: [...state.tokens, { id, name, keyHash, created: at, expires }] };
    }
    case 'PersonalTokenRevoked':
      return { ...state, tokens: state.tokens.filter((t) => t.id !== event.data.tokenId) };
  }
}

export function evolveAccount(
  state: AccountState,
  event: IdentityEvent,
  context: EventContext,
): AccountState {
  const at = context.metadata.timestamp;
  const next = apply(state, event, at);
  const publishedRev = PRIVATE_IDENTITY_EVENTS.has(event.type) ? state.publishedRev : context.revision;
  return { ...next, created: state.created || at, lastModified: at, rev: context.revision, publishedRev };
}

export const accountStream = (id: string) => `account-${id}`;
const accountIdOf = (streamId: string) => streamId.slice('account-'.length);

export type AccountAggregate = Aggregate<AccountState, IdentityEvent, Promise<IdentityEvent>>;

/** The account aggregate over stored events whose personal data is sealed with the keys of `keys`. */
export function accountAggregate(keys: KeyStore): AccountAggregate {
  return {
    initial: initialAccount,
    evolve: evolveAccount,
    parse: (type, data) => openEvent(keys, type, data),
    encode: (event, streamId) => sealEvent(keys, accountIdOf(streamId), event),
  };
}
