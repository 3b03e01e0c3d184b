/**
 * `docflow views list` pages through a view on a server; `docflow views rebuild` rebuilds the views of
 * a stopped data directory by running the document service's own offline rebuild (its configuration,
 * its lock on the directory, its progress line) as a child process: a package never links a service's
 * code (docs/decisions.md, "The command-line tool").
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { ViewId } from '@docflow/client';
import { Argument, Command, Option } from 'commander';
import { CHECKOUT } from './checkout';
import { addListOptions, type ListOptions, listDocuments } from './document-list';
import { fromStartDir } from './start-dir';

const DOCUMENT_SERVICE = join(CHECKOUT, 'services/document');
const REBUILD_ENTRY = 'src/views/rebuild-cli.ts';

export function viewsCommand(): Command {
  const views = new Command('views').description('views: listings of documents, and their offline rebuild');

  addListOptions(
    views
      .command('list')
      .description('list the documents of a view: {total, first, items} (total: svc-total-count)')
      .addArgument(new Argument('<view>', 'which view').choices(['inbox', 'mydocs', 'all'])),
  ).action((view: ViewId, options: ListOptions, command: Command) => listDocuments(command, view, options));

  views
    .command('rebuild')
    .description(
      'rebuild the views of a stopped data directory from its events, showing total, rate and time left; ' +
        'refused (exit 4) while a running process holds the directory: a running service rebuilds online ' +
        '(POST /api/admin/v1/views/rebuild)',
    )
    .addOption(new Option('--data-dir <dir>', 'the data directory').env('DOCFLOW_DATA_DIR').default('./data'))
    .action(async (options: { dataDir: string }) => {
      const child = spawn(process.execPath, ['--import', 'tsx', REBUILD_ENTRY], {
        cwd: DOCUMENT_SERVICE,
        env: { ...process.env, DOCFLOW_DATA_DIR: fromStartDir(options.dataDir) },
        stdio: 'inherit',
      });
      process.exitCode = await new Promise<number>((done, failed) => {
        child.on('error', failed);
        child.on('exit', (code) => done(code ?? 1));
      });
    });

  return views;
}
