/** Which docflow wrote a backup: the CLI's version and, in a git checkout, the commit it runs from. */
import { execFileSync } from 'node:child_process';
import manifest from '../../package.json' with { type: 'json' };
import { CHECKOUT } from '../checkout';

export function provenance(): { version: string; commit: string | null } {
  let commit: string | null = null;
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: CHECKOUT,
      encoding: 'utf8',
      stdio: 'pipe',
    }).trim();
  } catch {
    // Not a git checkout (an installed package): the version alone says which docflow it was.
  }
  return { version: manifest.version, commit };
}
