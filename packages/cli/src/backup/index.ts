/**
 * `docflow backup <dir>` and `docflow restore <backup-dir> <data-dir>`: a consistent copy of an
 * embedded data directory taken while its server runs, and its restore into an empty directory
 * (README, "Backup and restore"). They work on the files, not through the API.
 */
import { Command, Option } from 'commander';
import { print } from '../server';
import { fromStartDir } from '../start-dir';
import { backupDataDir } from './backup';
import { progressOn } from './progress';
import { restoreBackup } from './restore';

export function backupCommand(): Command {
  return new Command('backup')
    .description(
      'copy a data directory into <dir> while its server runs (SQLite online backup of every store, ' +
        'blobs by content address, the key store) with a manifest of sizes and SHA-256; progress on ' +
        'stderr, a summary on stdout. <dir>: new, empty, or an earlier backup (only new blobs are copied)',
    )
    .argument('<dir>', 'where the backup goes')
    .addOption(new Option('--data-dir <dir>', 'the data directory').env('DOCFLOW_DATA_DIR').default('./data'))
    .action(async (dir: string, options: { dataDir: string }) => {
      print(await backupDataDir(fromStartDir(options.dataDir), fromStartDir(dir), progressOn('backup')));
    });
}

export function restoreCommand(): Command {
  return new Command('restore')
    .description(
      'restore a backup into <data-dir>, which must be empty or new; every file is checked against the ' +
        'manifest first, and nothing is written when one does not match (exit 1, naming it)',
    )
    .argument('<backup-dir>', 'a directory written by `docflow backup`')
    .argument('<data-dir>', 'the data directory to make (empty or new)')
    .action(async (backupDir: string, dataDir: string) => {
      print(await restoreBackup(fromStartDir(backupDir), fromStartDir(dataDir), progressOn('restore')));
    });
}
