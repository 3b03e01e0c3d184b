/**
 * The data directory (DOCFLOW_DATA_DIR) holds event stores with key and password hashes, so it is
 * its owner's only: 0700. One an older version made 0755 is tightened at start, which also closes
 * every file below it to other users whatever its own mode.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';

const PRIVATE_DIR = 0o700;

/** Creates `dir` 0700, or makes it 0700; returns the mode it had when it was open to others. */
export function makeDataDirPrivate(dir: string): number | undefined {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  chmodSync(dir, PRIVATE_DIR);
  return mode;
}
