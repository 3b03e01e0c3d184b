/**
 * `docflow verify <bundle>`: checks an export bundle offline (its archive entries, the hash chain, the
 * attachments' SHA-256, the document re-folded from its history; @docflow/audit's verifyBundle).
 */
import { existsSync } from 'node:fs';
import type { verifyBundle } from '@docflow/audit';
import { Command } from 'commander';
import { CliError, EXIT } from './exit-codes';
import { print } from './server';
import { fromStartDir } from './start-dir';

export function verifyCommand(): Command {
  return new Command('verify')
    .description(
      'verify an export bundle offline; prints the verdict, exits 0 when it verifies, 1 when not (an archive that cannot be read whole included)',
    )
    .argument('<bundle>', 'a bundle from `documents export` (tar)')
    .action(async (bundle: string) => {
      const path = fromStartDir(bundle);
      if (!existsSync(path)) throw new CliError(EXIT.usage, `no such file ${path}`);
      let verdict: Awaited<ReturnType<typeof verifyBundle>>;
      try {
        // Loaded here, not at start: its schemas are most of the command's code (bundle size, start time).
        verdict = await (await import('@docflow/audit')).verifyBundle(path);
      } catch (error) {
        throw new CliError(EXIT.refused, `${path} is not a readable bundle (${(error as Error).message})`);
      }
      print(verdict);
      if (!verdict.valid) process.exitCode = EXIT.refused;
    });
}
