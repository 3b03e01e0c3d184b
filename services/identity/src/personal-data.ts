/**
 * Sealing and opening the personal data of identity events (AES-256-GCM, a fresh 96-bit IV each time,
 * the account id as associated data, so a sealed value cannot be moved to another account). A decided
 * event is sealed before it is appended; a stored one is opened when it is folded. Once the account's
 * key is gone its personal data opens as `ERASED`.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  type IdentityEvent,
  PERSONAL_FIELDS,
  parseStoredIdentityEvent,
  type SealedData,
  type StoredIdentityEvent,
} from '@docflow/contracts';
import type { KeyStore } from './key-store';

/** What an erased personal field reads as, in every answer and every replay. */
export const ERASED = '[erased]';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const personal = new Set<string>(PERSONAL_FIELDS);

type Fields = Record<string, unknown>;

function split(fields: Fields): { clear: Fields; secret: Fields } {
  const clear: Fields = {};
  const secret: Fields = {};
  for (const [name, value] of Object.entries(fields)) (personal.has(name) ? secret : clear)[name] = value;
  return { clear, secret };
}

export function sealFields(key: Buffer, accountId: string, secret: Fields): SealedData {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(Buffer.from(accountId));
  const ct = Buffer.concat([cipher.update(JSON.stringify(secret), 'utf8'), cipher.final()]);
  const b64 = (b: Buffer) => b.toString('base64url');
  return { kid: accountId, iv: b64(iv), tag: b64(cipher.getAuthTag()), ct: b64(ct) };
}

/** The sealed fields, or undefined when the key is gone. */
export function openFields(key: Buffer | undefined, sealed: SealedData): Fields | undefined {
  if (!key) return undefined;
  const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(sealed.iv, 'base64url'));
  decipher.setAAD(Buffer.from(sealed.kid));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64url'));
  const clear = Buffer.concat([decipher.update(Buffer.from(sealed.ct, 'base64url')), decipher.final()]);
  return JSON.parse(clear.toString('utf8')) as Fields;
}

/** The stored form of a decided event of account `accountId`: its personal data sealed. */
export async function sealEvent(
  keys: KeyStore,
  accountId: string,
  event: IdentityEvent,
): Promise<StoredIdentityEvent> {
  const inChanges = event.type === 'PersonUpdated';
  const { clear, secret } = split(inChanges ? event.data.changes : event.data);
  if (Object.keys(secret).length === 0) return event as StoredIdentityEvent;
  const sealed = sealFields(await keys.keyFor(accountId), accountId, secret);
  const data = inChanges ? { changes: clear, sealed } : { ...clear, sealed };
  return { type: event.type, data } as StoredIdentityEvent;
}

/** Erased: the fields an event type always carries read as ERASED; optional ones are absent. */
function erasedFields(type: StoredIdentityEvent['type']): Fields {
  if (type === 'AccountCreated') return { email: ERASED, name_first: ERASED, name_last: ERASED };
  if (type === 'PasswordChanged' || type === 'PasswordSet') return { pwdHash: ERASED };
  return {};
}

/** The clear form of a stored event (events written before sealing are clear already). */
export async function openEvent(keys: KeyStore, type: string, data: unknown): Promise<IdentityEvent> {
  const stored = parseStoredIdentityEvent(type, data);
  if (!('sealed' in stored.data) || !stored.data.sealed) return stored as IdentityEvent;
  const { sealed, ...rest } = stored.data;
  const secret = openFields(await keys.existingKey(sealed.kid), sealed) ?? erasedFields(stored.type);
  if (stored.type === 'PersonUpdated') {
    const { changes } = rest as { changes: Fields };
    return { type: stored.type, data: { changes: { ...changes, ...secret } } } as IdentityEvent;
  }
  return { type: stored.type, data: { ...rest, ...secret } } as IdentityEvent;
}
