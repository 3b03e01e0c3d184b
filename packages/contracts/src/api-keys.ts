/**
 * The API keys identity issues (docs/decisions.md, "API keys"): `dfk_`, the service account's id as 32
 * hex digits, `_`, then 256 random bits in base64url. The id is no secret; it lets a gateway that has
 * not received the account from the bus yet ask identity about it instead of refusing the key. A key
 * of another shape (`DOCFLOW_ADMIN_KEY`, keys issued before the id was added) names no account and is
 * looked up by its hash alone.
 */
import { USR_ID_PATTERN } from './ids';

export const API_KEY_PATTERN = /^dfk_([0-9a-f]{32})_[A-Za-z0-9_-]{43}$/;

/** A key for `accountId` (a `usr-` id) from `secret`: 43 base64url characters (256 bits). */
export function apiKeyFor(accountId: string, secret: string): string {
  if (!USR_ID_PATTERN.test(accountId)) throw new RangeError(`not a usr- id: ${accountId}`);
  const key = `dfk_${accountId.slice('usr-'.length).replaceAll('-', '')}_${secret}`;
  if (!API_KEY_PATTERN.test(key)) throw new RangeError("an API key's secret is 43 base64url characters");
  return key;
}

/** The `usr-` id a key of identity's shape names; undefined for any other string. */
export function accountIdOfApiKey(key: string): string | undefined {
  const hex = API_KEY_PATTERN.exec(key)?.[1];
  if (hex === undefined) return undefined;
  return `usr-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
