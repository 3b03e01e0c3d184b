/**
 * The person a provider's ID token describes, for a provider that may create persons: the names the
 * token gives (the e-mail's local part when it gives none) and the docflow roles its groups map to.
 */
import type { Role } from '@docflow/contracts';
import type { OidcProviderConfig } from './oidc-config';

const NAME_MAX = 100;
const text = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, NAME_MAX) : '');

export function personToCreate(
  p: Pick<OidcProviderConfig, 'rolesClaim' | 'roleMap'>,
  claims: Record<string, unknown>,
  email: string,
): { name_first: string; name_last: string; roles: Role[] } {
  const first = text(claims.given_name) || text(claims.name) || email.split('@')[0]!.slice(0, NAME_MAX);
  const last = text(claims.family_name) || '-';
  const groups = claims[p.rolesClaim];
  const held = Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [];
  const roles = new Set(held.flatMap((g) => (Object.hasOwn(p.roleMap, g) ? p.roleMap[g]! : [])));
  return { name_first: first, name_last: last, roles: [...roles].sort() };
}
