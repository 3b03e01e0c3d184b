/**
 * The history's entries with their `summary`: the words are made by document-model's
 * summariseHistory, the names asked of identity for the entries shown. When identity does not answer,
 * the summaries name people by their ids (and say so in the log) rather than the history failing.
 */
import type { HistoryEntry } from '@docflow/contracts';
import { namedIds, summariseHistory } from '@docflow/document-model';
import type { Logger } from '@docflow/kit';
import type { z } from 'zod';
import { accountNames, type CallContext, type IdentityCalls } from '../calls/identity-calls';
import type { foldHistory } from './history';

type Entry = ReturnType<typeof foldHistory>['entries'][number];

/** `entries[first, end)` with summaries; every entry before them is read for context (an answer's edits). */
export async function summarisedPage(
  calls: IdentityCalls,
  ctx: CallContext,
  log: Pick<Logger, 'warn'>,
  entries: readonly Entry[],
  page: { first: number; end: number | undefined },
): Promise<Array<z.infer<typeof HistoryEntry>>> {
  const shown = entries.slice(page.first, page.end);
  const names = await accountNames(calls, ctx, namedIds(shown)).catch((error: unknown) => {
    log.warn({ err: error }, 'history: identity did not name the people; the summaries show their ids');
    return new Map<string, string>();
  });
  const summaries = summariseHistory(entries.slice(0, page.end), (id) => names.get(id) ?? id);
  return shown.map((entry, i) => ({ ...entry, summary: summaries[page.first + i] ?? '' }));
}
