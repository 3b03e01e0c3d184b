#!/usr/bin/env node
// The one test command: lint + format check, type check, the real local engines (Kafka, MinIO, PostgreSQL, Keycloak)
// through infra/, then every *.test.ts in one node:test run so the closing summary counts them all.
// `--no-infra` skips the engines (their tests then report themselves as skipped, with the reason).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const withInfra = !args.includes('--no-infra');
const filters = args.filter((a) => !a.startsWith('--'));

function run(title, cmd, cmdArgs, env = process.env) {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit', env });
  console.log(
    `  ${title}: ${r.status === 0 ? 'ok' : `failed (exit ${r.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return r.status ?? 1;
}

function findTests(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) findTests(p, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, p));
  }
  return out;
}

function readEnvFile(file) {
  const env = {};
  if (!existsSync(file)) return env;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2];
  }
  return env;
}

const bin = (name) => join(root, 'node_modules', '.bin', name);
let failed = 0;
failed += run('lint and format check (biome)', bin('biome'), ['check', '.']) ? 1 : 0;
failed += run('type check (tsc)', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']) ? 1 : 0;
failed += run('type check of the web console (tsc)', bin('tsc'), ['-p', 'packages/console/tsconfig.json'])
  ? 1
  : 0;

if (existsSync(join(root, 'infra/validate-compose.sh')))
  failed += run('docker-compose.yml check (compose-go)', 'bash', [join(root, 'infra/validate-compose.sh')])
    ? 1
    : 0;

let env = { ...process.env };
const infraUp = join(root, 'infra/local/up.sh');
let startedInfra = false;
// Engines that were running before this run (a developer's, or another run's) stay running after it;
// only those it started are stopped at the end.
const ENGINES = ['kafka', 'minio', 'postgres', 'keycloak', 'mailpit'];
const notUpBefore = existsSync(infraUp)
  ? ENGINES.filter(
      (engine) =>
        spawnSync('bash', [join(root, 'infra/local/status.sh'), engine], { cwd: root, stdio: 'ignore' })
          .status !== 0,
    )
  : [];
if (withInfra && existsSync(infraUp)) {
  if (run('real engines for the distributed suites (infra/local/up.sh)', 'bash', [infraUp]) !== 0) {
    console.log('  the local engines did not start: their suites will fail, not skip');
    env.DOCFLOW_ENGINES_REQUIRED = '1';
  } else {
    startedInfra = notUpBefore.length > 0;
    env = { ...env, ...readEnvFile(join(root, '.infra/env')), DOCFLOW_ENGINES_REQUIRED: '1' };
  }
}

// The browser tests drive Debian's Chromium (no browser download); without it they skip, saying why.
const installChromium = join(root, 'infra/local/install-chromium.sh');
if (
  existsSync(installChromium) &&
  run('Chromium for the browser tests (infra/local/install-chromium.sh)', 'bash', [installChromium]) !== 0
)
  console.log('  Chromium could not be installed: the browser tests will skip');

const dirs = ['packages', 'services', 'tests'].map((d) => join(root, d)).filter(existsSync);
let files = dirs.flatMap((d) => findTests(d)).sort();
if (filters.length) files = files.filter((f) => filters.some((x) => f.includes(x)));
const testStatus = run(
  `tests (${files.length} files)`,
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files],
  env,
);
if (startedInfra && !process.env.DOCFLOW_KEEP_INFRA)
  run('stop the local engines this run started', 'bash', [join(root, 'infra/local/down.sh'), ...notUpBefore]);
process.exit(failed || testStatus ? 1 : 0);
