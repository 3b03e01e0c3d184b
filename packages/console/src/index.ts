/**
 * The web console (`/console`): a Preact app under `src/web/`, bundled in memory by esbuild the first time
 * it is asked for. No build step and no committed output: what is served is what the sources say.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface ConsoleAsset {
  body: Uint8Array;
  type: string;
}

const ENTRY = fileURLToPath(new URL('./web/main.tsx', import.meta.url));
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** The page: markup only; the script and the styles are files (a strict CSP allows no inline code). */
export const CONSOLE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>docflow console</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script type="module" src="/console/assets/console.js"></script>
</head><body><div id="app"><p class="loading">Loading the docflow console…</p></div>
<noscript>The docflow console needs JavaScript.</noscript></body></html>`;

/**
 * The console's Content-Security-Policy, as directives (Hono's secureHeaders takes them so): its own
 * files and calls to its own origin, nothing inline, nothing else. Its forms post to its own origin
 * (the gateway adds the single sign-on providers, where a sign-out's redirect leads).
 */
export const CONSOLE_CSP = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  connectSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

async function bundle(): Promise<Map<string, ConsoleAsset>> {
  const result = await build({
    entryPoints: { console: ENTRY },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: '/console-assets',
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  });
  const assets = new Map<string, ConsoleAsset>();
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    const ext = name.slice(name.lastIndexOf('.'));
    if (TYPES[ext]) assets.set(name, { body: file.contents, type: TYPES[ext] });
  }
  return assets;
}

let built: Promise<Map<string, ConsoleAsset>> | undefined;

/** The bundled files by name (`console.js`, `console.css`), built once per process. */
export function consoleAssets(): Promise<Map<string, ConsoleAsset>> {
  built ??= bundle().catch((err: unknown) => {
    built = undefined;
    throw err;
  });
  return built;
}
