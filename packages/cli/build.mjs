/**
 * Compiles the `docflow` command to JavaScript, so a call starts without compiling TypeScript (tsx took
 * 2.2–2.8 s a call). `pnpm install` runs it (postinstall); the bin runs it again when a source it was
 * built from has changed since, so a checkout that moved on never runs a stale build. Workspace and npm
 * packages are bundled in (what only some commands need, in chunks loaded when they run); only the
 * native better-sqlite3 is loaded from node_modules.
 *
 * Each build's files are named by the hash of their content (`.dist/main-<hash>.mjs`: beside `src/`, so
 * the modules find the checkout two levels up alike; a dot-directory, which the tools that read the
 * workspace's sources pass over), each written through a rename; then
 * `.dist/build.json` (its entry, and each source's path, size and mtime) is replaced: processes
 * building at the same time write the same files, and one never reads another's half-written one.
 */
import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = resolve(HERE, '.dist');
export const BUILD_RECORD = join(DIST, 'build.json');

function writeAtomically(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const part = `${path}.${process.pid}.part`;
  writeFileSync(part, contents);
  renameSync(part, path);
}

/** Builds the command and records it; resolves to the path of its entry module. */
export async function buildCli() {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: HERE,
    entryPoints: { main: 'src/main.ts' },
    entryNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    outdir: DIST,
    outExtension: { '.js': '.mjs' },
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    // CommonJS packages bundled into an ES module still `require` Node's own modules.
    banner: {
      js: "import { createRequire as __cliRequire } from 'node:module'; const require = __cliRequire(import.meta.url);",
    },
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
  const inputs = Object.keys(result.metafile.inputs).map((path) => {
    const full = resolve(HERE, path);
    const { size, mtimeMs } = statSync(full);
    return { path: full, size, mtimeMs };
  });
  const entry = Object.keys(result.metafile.outputs)
    .map((path) => resolve(HERE, path))
    .find((path) => /[/\\]main-[^/\\]+\.mjs$/.test(path));
  writeAtomically(BUILD_RECORD, JSON.stringify({ entry, inputs }));
  return entry;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildCli();
