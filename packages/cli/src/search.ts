/**
 * `docflow search <words…>`: the API's ranked full-text search (a view's `q`): documents whose values,
 * tags, attachment names or recognised text hold every word, best match first.
 */
import type { ViewId } from '@docflow/client';
import { Command, Option } from 'commander';
import { addListOptions, type ListOptions, listDocuments } from './document-list';

export function searchCommand(): Command {
  return addListOptions(
    new Command('search')
      .description(
        'search the documents you may read for every word (the last also as a prefix), best match first: ' +
          '{total, first, items}',
      )
      .argument('<words...>', 'what to look for')
      .addOption(
        new Option('--view <view>', 'search within this view')
          .choices(['all', 'inbox', 'mydocs'])
          .default('all'),
      ),
  ).action((words: string[], options: ListOptions & { view: ViewId }, command: Command) =>
    listDocuments(command, options.view, options, words.join(' ')),
  );
}
