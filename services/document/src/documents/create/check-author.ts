/**
 * Step 4 of a create: the new document's author — the caller, or another account named by one who
 * may (403 otherwise) that identity knows (400 otherwise).
 */

import { type CallContext, type IdentityCalls, requireAccount } from '../../calls/identity-calls';
import { authorOf } from '../access';

/** @example const author = await checkAuthor(calls, ctx, docForm.author); */
export async function checkAuthor(
  calls: IdentityCalls,
  ctx: CallContext,
  named: string | undefined,
): Promise<string> {
  const author = authorOf(ctx.principal, named);
  await requireAccount(calls, ctx, author, 'docForm.author');
  return author;
}
