import { resolve } from 'node:path';

/**
 * A path given on the command line, taken from the directory the command was started in: pnpm runs a
 * script in the workspace root and passes the caller's directory as INIT_CWD.
 */
export function fromStartDir(path: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), path);
}
