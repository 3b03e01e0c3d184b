/**
 * `docflow views list` pages through a view on a server; `docflow views rebuild` rebuilds the views of
 * a stopped data directory by running the document service's own offline rebuild (its configuration,
 * its lock on the directory, its progress line) as a child process: a package never links a service's
 * code (docs/decisions.md, "The command-line tool").
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ViewId, ViewQuery } from '@docflow/client';
import { Argument, Command, Option } from 'commander';
import { collectPages } from './pages';
import { integer } from './parse';
import { clientOf, print } from './server';
import { fromStartDir } from './start-dir';

const DOCUMENT_SERVICE = fileURLToPath(new URL('../../../services/document/', import.meta.url));
const REBUILD_ENTRY = 'src/views/rebuild-cli.ts';

export function viewsCommand(): Command {
  const views = new Command('views').description('views: listings of documents, and their offline rebuild');

  views
    .command('list')
    .description('list the documents of a view: {total, first, items} (total: svc-total-count)')
    .addArgument(new Argument('<view>', 'which view').choices(['inbox', 'mydocs', 'all']))
    .option('--tags <tags>', 'comma-separated tags, combined with AND')
    .option('--form <names>', 'comma-separated form names, combined with OR')
    .option('--author <ids>', 'comma-separated author usr- ids, combined with OR')
    .option('--state <n>', 'documents in this state', integer(0, 100))
    .option('--first <n>', 'skip this many documents', integer(0, 2147483646), 0)
    .option('--page-size <n>', 'documents per request', integer(1, 100), 10)
    .option('--all', 'every page from --first on, not one')
    .action(async (view: ViewId, options, command: Command) => {
      const client = clientOf(command);
      const filters: ViewQuery = {
        pageSize: options.pageSize,
        ...(options.tags ? { tags: options.tags } : {}),
        ...(options.form ? { form: options.form } : {}),
        ...(options.author ? { author: options.author } : {}),
        ...(options.state !== undefined ? { state: options.state } : {}),
      };
      print(
        await collectPages(options.first, options.all === true, (first) =>
          client.viewPage(view, { ...filters, first }),
        ),
      );
    });

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
