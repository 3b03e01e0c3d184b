#!/usr/bin/env node
// The `docflow` command: runs the compiled build (build.mjs), rebuilt first when a source changed since
// it was built. Where it cannot be built (e.g. a read-only checkout), the TypeScript sources run
// through tsx, as slowly as before.
import { readFileSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The entry of the build, if one exists and every source is as it was built from. */
function freshBuild() {
  try {
    const { entry, inputs } = JSON.parse(
      readFileSync(new URL('../.dist/build.json', import.meta.url), 'utf8'),
    );
    const unchanged = inputs.every(({ path, size, mtimeMs }) => {
      const now = statSync(path, { throwIfNoEntry: false });
      return now?.size === size && now.mtimeMs === mtimeMs;
    });
    return unchanged ? entry : undefined;
  } catch {
    return undefined;
  }
}

let entry = freshBuild();
if (!entry) {
  try {
    entry = await (await import('../build.mjs')).buildCli();
  } catch (error) {
    process.stderr.write(`docflow: cannot compile the command (${error.message}); running its sources\n`);
  }
}
if (entry) await import(pathToFileURL(entry).href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
