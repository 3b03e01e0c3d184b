/** What `views list` and `search` share: their filter and paging options, and the listing itself. */
import type { ViewId, ViewQuery } from '@docflow/client';
import type { Command } from 'commander';
import { DOCUMENT_COLUMNS } from './columns';
import { show } from './output';
import { collectPages } from './pages';
import { csv, integer } from './parse';
import { accountIdsOf } from './people';
import { clientOf } from './server';

export interface ListOptions {
  tags?: string;
  form?: string;
  author?: string[];
  state?: number;
  first: number;
  pageSize: number;
  all?: boolean;
}

export function addListOptions(command: Command): Command {
  return command
    .option('--tags <tags>', 'comma-separated tags, combined with AND')
    .option('--form <names>', 'comma-separated form names, combined with OR')
    .option('--author <people>', 'comma-separated authors (usr- ids or e-mails), combined with OR', csv)
    .option('--state <n>', 'documents in this state', integer(0, 100))
    .option('--first <n>', 'skip this many documents', integer(0, 2147483646), 0)
    .option('--page-size <n>', 'documents per request', integer(1, 100), 10)
    .option('--all', 'every page from --first on, not one');
}

/** Lists `view` (searched for `q`, when given) and shows `{total, first, items}`. */
export async function listDocuments(
  command: Command,
  view: ViewId,
  options: ListOptions,
  q?: string,
): Promise<void> {
  const client = clientOf(command);
  const authors = options.author?.length ? await accountIdsOf(client, options.author) : [];
  const filters: ViewQuery = {
    pageSize: options.pageSize,
    embed: 'names',
    ...(q ? { q } : {}),
    ...(options.tags ? { tags: options.tags } : {}),
    ...(options.form ? { form: options.form } : {}),
    ...(authors.length ? { author: authors.join(',') } : {}),
    ...(options.state !== undefined ? { state: options.state } : {}),
  } as ViewQuery;
  show(
    command,
    await collectPages(options.first, options.all === true, (first) =>
      client.viewPage(view, { ...filters, first }),
    ),
    { columns: DOCUMENT_COLUMNS },
  );
}
