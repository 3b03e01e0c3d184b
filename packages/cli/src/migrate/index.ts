/**
 * `docflow migrate …`: migrations of a stopped data directory's stored data (README, "Migrations").
 * They work on the files, not through the API, and never change the data directory they read.
 */
import { Command, Option } from 'commander';
import { progressOn } from '../backup/progress';
import { CliError, EXIT } from '../exit-codes';
import { integer } from '../parse';
import { print } from '../server';
import { fromStartDir } from '../start-dir';
import { resealIdentity } from './reseal-identity';

export function migrateCommand(): Command {
  const migrate = new Command('migrate').description(
    'migrations of the stored data of a stopped data directory',
  );
  migrate
    .command('reseal-identity')
    .description(
      'write a new data directory <new-dir> from the stopped --data-dir in which no identity event holds ' +
        'personal data in clear (events written before sealing): identity events replayed with every clear ' +
        'personal field sealed with its account key, the other stores and blobs copied as by `docflow ' +
        'backup`, then every file of <new-dir> checked for the old clear values. Progress on stderr, a ' +
        'summary on stdout. Interrupted or stopped at --limit (exit 5): run it again to go on',
    )
    .argument('<new-dir>', 'the new data directory (new, empty, or one this migration began)')
    .addOption(
      new Option('--data-dir <dir>', 'the old data directory').env('DOCFLOW_DATA_DIR').default('./data'),
    )
    .option('--limit <n>', 'replay at most this many identity events in this run', integer(1, 2147483647))
    .action(async (dir: string, options: { dataDir: string; limit?: number }) => {
      const summary = await resealIdentity(
        fromStartDir(options.dataDir),
        fromStartDir(dir),
        options.limit ? { limit: options.limit } : {},
        progressOn('migrate'),
      );
      print(summary);
      const { resumedWith, replayed, total } = summary.identity;
      if (!summary.complete)
        throw new CliError(
          EXIT.incomplete,
          `${resumedWith + replayed} of ${total} identity events replayed (--limit): run the same command again to go on`,
        );
    });
  return migrate;
}
