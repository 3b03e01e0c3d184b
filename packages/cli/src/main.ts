/** The `docflow` command line: parses, runs one command, and turns what went wrong into an exit code. */
import { DocflowProblem } from '@docflow/client';
import { Command, CommanderError } from 'commander';
import manifest from '../package.json' with { type: 'json' };
import { accountsCommand } from './accounts';
import { backupCommand, restoreCommand } from './backup';
import { documentsCommand } from './documents';
import { downloadCommand } from './download';
import { CliError, EXIT, EXIT_CODES_HELP } from './exit-codes';
import { formsCommand } from './forms';
import { manageCommand } from './manage';
import { migrateCommand } from './migrate';
import { addOutputOption } from './output';
import { searchCommand } from './search';
import { addServerOptions } from './server';
import { taskCommands } from './tasks';
import { verifyCommand } from './verify';
import { viewsCommand } from './views';

const program = addOutputOption(
  addServerOptions(
    new Command('docflow')
      .description(
        'docflow from the command line: answers on stdout (a table on a terminal, JSON otherwise), problems on stderr',
      )
      .version(manifest.version)
      .exitOverride()
      .configureHelp({ showGlobalOptions: true })
      .showHelpAfterError('(add --help for usage)'),
  ),
).addHelpText('afterAll', EXIT_CODES_HELP);
for (const command of [
  accountsCommand(),
  formsCommand(),
  documentsCommand(),
  searchCommand(),
  ...taskCommands(),
  manageCommand(),
  downloadCommand(),
  viewsCommand(),
  verifyCommand(),
  backupCommand(),
  restoreCommand(),
  migrateCommand(),
])
  program.addCommand(command);
// Commands built on their own inherit nothing: each throws its usage errors here, to exit with 2.
(function inherit(parent: Command) {
  for (const command of parent.commands) inherit(command.copyInheritedSettings(program));
})(program);

/** A problem's `errors` entry: where, and what is wrong there. */
interface Pointed {
  pointer?: string;
  message?: string;
}

/** What to tell the user, and the exit code, for an error a command ended with. */
function outcomeOf(error: unknown): { exitCode: number; message?: string } {
  // Commander has already written the usage error, or the help or version asked for.
  if (error instanceof CommanderError) return { exitCode: error.exitCode === 0 ? EXIT.ok : EXIT.usage };
  if (error instanceof CliError) return { exitCode: error.exitCode, message: error.message };
  if (error instanceof DocflowProblem) {
    const { title, detail, errors } = error.problem as typeof error.problem & { errors?: Pointed[] };
    // An id in the path of a shape no document, account or form has: it names nothing.
    if (error.status === 400 && errors?.length && errors.every((e) => e.pointer?.startsWith('path.')))
      return {
        exitCode: EXIT.notFound,
        message: `not found: ${errors.map((e) => `no such ${e.pointer?.slice('path.'.length)} (${e.message})`).join('; ')}`,
      };
    const lines = [`${error.status} ${title}${detail ? `: ${detail}` : ''}`];
    if (errors) lines.push(JSON.stringify(errors));
    const exitCode =
      error.status >= 500 ? EXIT.unreachable : error.status === 404 ? EXIT.notFound : EXIT.refused;
    return { exitCode, message: lines.join('\n') };
  }
  // fetch: no connection, refused, reset, or a name that does not resolve.
  if (error instanceof TypeError && error.message === 'fetch failed') {
    const cause = error.cause as { code?: string; message?: string } | undefined;
    return {
      exitCode: EXIT.unreachable,
      message: `cannot reach the server: ${cause?.code ?? cause?.message}`,
    };
  }
  // A file that cannot be read or written (fs: ENOENT, EACCES, EISDIR, …).
  if (error instanceof Error && 'syscall' in error) return { exitCode: EXIT.usage, message: error.message };
  throw error;
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const { exitCode, message } = outcomeOf(error);
  if (message) process.stderr.write(`docflow: ${message}\n`);
  process.exitCode = exitCode;
}
