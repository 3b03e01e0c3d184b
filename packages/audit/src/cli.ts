/**
 * `pnpm docflow verify <bundle.tar>`: verifies an export bundle offline (Node and this repository,
 * nothing else). Prints the verdict as JSON; exits 0 when the bundle verifies, 1 when not, 2 on misuse.
 */
import { verifyBundle } from './bundle-verify';

const [command, path] = process.argv.slice(2);
if (command !== 'verify' || !path) {
  process.stderr.write('usage: docflow verify <bundle.tar>\n');
  process.exit(2);
}
const verdict = await verifyBundle(path);
process.stdout.write(`${JSON.stringify(verdict, null, 2)}\n`);
process.exitCode = verdict.valid ? 0 : 1;
