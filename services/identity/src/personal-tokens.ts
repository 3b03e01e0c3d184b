/** Personal access tokens of a person: one pure decision per command (contracts' personal-tokens.ts). */
import { type IdentityEvent, PERSONAL_TOKENS_MAX, rejections } from '@docflow/contracts';
import type { AccountState } from './account';

export interface IssuePersonalToken {
  tokenId: string;
  name: string;
  /** SHA-256 of the new token (hashApiKey). */
  keyHash: string;
  expiresAt: string | null;
}

/** Only an active person gets a token, and no more than PERSONAL_TOKENS_MAX live at once. */
export function decideIssuePersonalToken(cmd: IssuePersonalToken, state: AccountState): IdentityEvent[] {
  if (!state.exists || state.kind !== 'person' || !state.active || state.erased)
    throw rejections.notFound('no such active person');
  if (state.tokens.length >= PERSONAL_TOKENS_MAX)
    throw rejections.conflict(`a person holds at most ${PERSONAL_TOKENS_MAX} tokens: revoke one first`);
  return [{ type: 'PersonalTokenIssued', data: { ...cmd } }];
}

export function decideRevokePersonalToken(tokenId: string, state: AccountState): IdentityEvent[] {
  if (!state.tokens.some((t) => t.id === tokenId)) throw rejections.notFound('no such token');
  return [{ type: 'PersonalTokenRevoked', data: { tokenId } }];
}
