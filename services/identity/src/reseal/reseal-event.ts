/**
 * One stored identity event with no personal field left in clear: an event written before sealing
 * (docs/decisions.md, "Personal data") carries them in clear, and is stored again sealed with its
 * account's key exactly as identity seals a decided event today, so every fold reads the same.
 */
import { randomBytes } from 'node:crypto';
import { PERSONAL_FIELDS, parseStoredIdentityEvent } from '@docflow/contracts';
import { accountStream } from '../account';
import { KEY_BYTES, type KeyStore } from '../key-store';
import { openEvent, sealEvent } from '../personal-data';

const ACCOUNT_PREFIX = accountStream('');
const personal = new Set<string>(PERSONAL_FIELDS);

/** The personal fields an event of an account stream carries in clear, by name (none: `{}`). */
export function clearPersonalFields(streamId: string, type: string, data: unknown): Record<string, string> {
  if (!streamId.startsWith(ACCOUNT_PREFIX)) return {};
  const stored = parseStoredIdentityEvent(type, data);
  const fields: Record<string, unknown> = stored.type === 'PersonUpdated' ? stored.data.changes : stored.data;
  return Object.fromEntries(
    Object.entries(fields).filter(
      (entry): entry is [string, string] => personal.has(entry[0]) && typeof entry[1] === 'string',
    ),
  );
}

/**
 * The data to store instead of `data`: its clear personal fields sealed under the account's key
 * (made now for an account that never had one); undefined when it holds none in clear. An erased
 * account has no key: its values are sealed under a key made for the moment and never kept, so they
 * never open again and read as erased, as they did (its `AccountErased` overrides them in the fold).
 */
export async function resealedData(
  keys: KeyStore,
  streamId: string,
  type: string,
  data: unknown,
): Promise<unknown> {
  if (Object.keys(clearPersonalFields(streamId, type, data)).length === 0) return undefined;
  const sealing: KeyStore = {
    ...keys,
    keyFor: async (id) => ((await keys.wasErased(id)) ? randomBytes(KEY_BYTES) : keys.keyFor(id)),
  };
  const accountId = streamId.slice(ACCOUNT_PREFIX.length);
  return (await sealEvent(sealing, accountId, await openEvent(keys, type, data))).data;
}
