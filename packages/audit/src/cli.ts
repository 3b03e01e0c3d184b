/**
 * `pnpm docflow verify <bundle.tar>`: verifies an export bundle offline (Node and this repository,
 * nothing else). Prints the verdict as JSON; exits 0 when the bundle verifies, 1 when not (an archive
 * that cannot be read whole included), 2 on misuse.
 */
import { existsSync } from 'node:fs';
import { verifyBundle } from './bundle-verify';

const [command, path] = process.argv.slice(2);
if (command !== 'verify' || !path) {
  process.stderr.write('usage: docflow verify <bundle.tar>\n');
  process.exit(2);
}
if (!existsSync(path)) {
  process.stderr.write(`docflow verify: no such file ${path}\n`);
  process.exit(2);
}
try {
  const verdict = await verifyBundle(path);
  process.stdout.write(`${JSON.stringify(verdict, null, 2)}\n`);
  process.exitCode = verdict.valid ? 0 : 1;
} catch (err) {
  process.stderr.write(`docflow verify: ${path} is not a readable bundle (${(err as Error).message})\n`);
  process.exitCode = 1;
}
