/**
 * View listings at N documents (VIEWS_DOCUMENTS, default 100,000 so that `pnpm bench` stays bounded;
 * issue 14's run: `VIEWS_DOCUMENTS=1000000 VIEWS_DATA_DIR=/some/dir pnpm exec tsx bench/views.ts`).
 *
 * 1. Seed (bench/seed-views.ts): N documents appended through the document service's event store, in
 *    a temporary directory, or in VIEWS_DATA_DIR, kept between runs (a seeded one is completed, not
 *    redone). Timed.
 * 2. Rebuild: `views:rebuild` on it (the real command: progress, events/s), then its floor in the same
 *    run (rebuild-floor.ts: SQLite alone writing the rows it ended with). VIEWS_REBUILD=skip keeps the
 *    views a previous run built.
 * 3. docflow embedded on it. Once `/readyz` answers, the first listing's first request, timed alone: what
 *    a user sees right after a restart (beside it, the events its catch-up subscriptions had yet to apply,
 *    from /metrics). Then, once every document is listed and no catch-up subscription (views, audit
 *    heads, relays) is behind any more (their one-off work would land on whichever listing runs first),
 *    that listing under load for START_UP_S, reported apart (the process's own warm-up); then every
 *    listing (views-dataset.ts says who holds what) under autocannon, as the admin and as bob (no admin
 *    role), each beside its reference: the read model's own statements for it (`plan`), run one after another on the read model's database, with the
 *    documents' JSON read (not parsed); and the read model's `query` in this process: its first call
 *    (the total counted), then with the total kept (total-cache.ts; a small total's matches too). The docflow process's peak RSS at the end.
 * VIEWS_LISTINGS=search runs only the full-text searches (issue 17), written to a section of their own.
 * Bounded by counts and time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ViewId, ViewQuery } from '../packages/contracts/src';
import { openLocalDb } from '../packages/kit/src/local-db';
import type { Principal } from '../packages/kit/src/principal';
import { createDeputiesReadModel } from '../services/document/src/views/deputies';
import { progressLine } from '../services/document/src/views/progress';
import { createViewsReadModel } from '../services/document/src/views/read-model';
import { peakMiB } from '../tests/support/process';
import { newAdminKey, startEmbedded } from '../tests/support/targets';
import { profileProcesses } from './profile';
import { measureRebuildFloor } from './rebuild-floor';
import { machine, writeSection } from './results';
import { SEED_FILE, type SeedRecord, seedViews } from './seed-views';
import { fixed, type LoadFigures, load, loadNote, newLogFile, percentile, verdict } from './support';
import { AUDIT_TAG, syntheticUser } from './views-dataset';

const DOCUMENTS = Number(process.env.VIEWS_DOCUMENTS ?? 100_000);
const KEPT_DIR = process.env.VIEWS_DATA_DIR;
const REBUILD = process.env.VIEWS_REBUILD !== 'skip';
/** The rebuild's target (issue 14): events replayed per second. */
const REBUILD_TARGET = 20_000;
/** The template documents the seed created through the API (one per form and workflow state). */
const TEMPLATE_DOCUMENTS = 9;
const CONNECTIONS = 10;
const WARM_UP_S = 1;
/**
 * Right after the start, the first listing under load this long, reported apart: the process's own
 * warm-up (JIT, caches: about twice the CPU per listing in its first seconds under load, with or
 * without a rebuild before) lands on no listing's figures.
 */
const START_UP_S = 3;
const DURATION_S = Number(process.env.VIEWS_DURATION_S ?? 3);
const REFERENCE_RUNS = 200;
const REFERENCE_MAX_MS = 2_000;
const CATCH_UP_MAX_S = 120;
/** The gauges (/metrics) of the subscriptions that catch up after a start, on the process's one event loop. */
const BACKLOG_GAUGES = [
  'docflow_views_behind_events',
  'docflow_audit_heads_behind_events',
  'docflow_relay_backlog_events',
];
const TARGET_P99_MS = 50;
/** Issue 17: a full-text search (`q`) within 100 ms at 1,000,000 documents. */
const SEARCH_TARGET_P99_MS = 100;
/** VIEWS_LISTINGS=search: only the full-text searches, in a section of their own. */
const ONLY_SEARCH = process.env.VIEWS_LISTINGS === 'search';
const PAGE = 'pageSize=20';
const BOB = 'bob@example.com';

interface Listing {
  name: string;
  view: ViewId;
  query: Omit<ViewQuery, 'first' | 'pageSize'> & { first?: number };
  /** Run as bob (no admin role), else the admin. */
  bob?: boolean;
}

/** A prolific synthetic author (the skew puts the low numbers first). */
const AUTHOR = syntheticUser('author', 0);
const LISTINGS: Listing[] = [
  { name: 'mydocs', view: 'mydocs', query: {} },
  { name: 'mydocs, a form', view: 'mydocs', query: { form: ['invoice'] } },
  { name: 'mydocs, a tag and a form', view: 'mydocs', query: { form: ['memo'], tags: ['t3'] } },
  { name: 'mydocs, a state', view: 'mydocs', query: { state: 1 } },
  { name: 'all', view: 'all', query: {} },
  { name: 'all, a state', view: 'all', query: { state: 1 } },
  { name: 'all, a status', view: 'all', query: { status: 2 } },
  { name: 'all, a step', view: 'all', query: { step: 1 } },
  { name: 'all, an iteration', view: 'all', query: { iteration: 1 } },
  { name: 'all, a form and a status', view: 'all', query: { form: ['memo'], status: 2 } },
  { name: 'all, two forms', view: 'all', query: { form: ['memo', 'invoice'] } },
  { name: 'all, an author', view: 'all', query: { author: [AUTHOR] } },
  { name: 'all, a common tag', view: 'all', query: { tags: ['t0'] } },
  { name: 'all, two tags', view: 'all', query: { tags: ['t0', 't1'] } },
  { name: `all, tag ${AUDIT_TAG}`, view: 'all', query: { tags: [AUDIT_TAG] } },
  { name: 'all, deep page', view: 'all', query: { state: 1, first: 5_000 } },
  { name: 'inbox', view: 'inbox', query: {} },
  { name: 'mydocs', view: 'mydocs', query: {}, bob: true },
  { name: 'mydocs, a tag', view: 'mydocs', query: { tags: ['t0'] }, bob: true },
  { name: 'mydocs, a status', view: 'mydocs', query: { status: 1 }, bob: true },
  { name: 'all', view: 'all', query: {}, bob: true },
  {
    name: `all, tag ${AUDIT_TAG} (as many as bob's own)`,
    view: 'all',
    query: { tags: [AUDIT_TAG] },
    bob: true,
  },
  { name: 'all, a common tag', view: 'all', query: { tags: ['t0'] }, bob: true },
  { name: 'all, a state and a form', view: 'all', query: { state: 1, form: ['memo'] }, bob: true },
  { name: 'inbox', view: 'inbox', query: {}, bob: true },
  { name: 'inbox, a form', view: 'inbox', query: { form: ['invoice'] }, bob: true },
  { name: 'inbox, deep page', view: 'inbox', query: { first: 2_000 }, bob: true },
  // Full-text searches: every seeded document's values are `Document <i>` and `view bench`.
  { name: 'search, a rare word (a number, as a prefix)', view: 'all', query: { q: '4242' } },
  { name: 'search, a common and a rare word', view: 'all', query: { q: 'document 4242' } },
  {
    name: 'search, a common and a rare word, a tag',
    view: 'all',
    query: { q: 'document 4242', tags: ['t0'] },
  },
  { name: 'search, a common and a rare word', view: 'all', query: { q: 'document 4242' }, bob: true },
  { name: 'search, a common and a rare word', view: 'mydocs', query: { q: 'document 4242' }, bob: true },
  { name: 'search, a word every document holds (worst case)', view: 'all', query: { q: 'bench' } },
  { name: 'search, a word every document holds (worst case)', view: 'all', query: { q: 'bench' }, bob: true },
];
/** With the searches alone, the admin's plain `all` too: a listing without `q` measured under the same load. */
const listings = ONLY_SEARCH
  ? LISTINGS.filter((l) => l.query.q !== undefined || (l.name === 'all' && !l.bob))
  : LISTINGS;
const targetOf = (listing: Listing) => (listing.query.q === undefined ? TARGET_P99_MS : SEARCH_TARGET_P99_MS);

function pathOf({ view, query }: Listing): string {
  const params = new URLSearchParams(PAGE);
  // Several values of one parameter: comma-separated (the contract's csv).
  for (const [key, value] of Object.entries(query))
    params.append(key, Array.isArray(value) ? value.join(',') : String(value));
  return `${view}?${params}`;
}

interface Figures {
  listing: Listing;
  matching: number;
  load: LoadFigures;
  reference: { p50: number; p99: number; runs: number };
  /** The read model's `query` in this process: the first (its total counted), then p50 / p99 (kept). */
  reader: { first: number; p50: number; p99: number };
}

const started = loadNote();
const dataDir = KEPT_DIR ? resolve(KEPT_DIR) : mkdtempSync(join(tmpdir(), 'docflow-bench-views-'));

/** The events and the rate views:rebuild's summary line gives. */
function rebuilt(line: string): { events: number; perSecond: number } | undefined {
  const [, events, perSecond] = /rebuilt in [\d.]+ s \((\d+) events, (\d+) events\/s/.exec(line) ?? [];
  return events && perSecond ? { events: Number(events), perSecond: Number(perSecond) } : undefined;
}

/**
 * The rebuild's floor in the same run (rebuild-floor.ts): SQLite alone writing the rows the rebuild
 * ended with, into a scratch file beside them; as events/s of the rebuild's events, and the rebuild's
 * rate as a share of it.
 */
function floorNote(rebuiltLine: string): string {
  const figures = rebuilt(rebuiltLine);
  if (!figures) return 'Its floor: not measured (no summary line to compare with)';
  const floorLoad = loadNote();
  console.log('rebuild floor: SQLite alone writing the rebuilt rows into a scratch file');
  const floor = measureRebuildFloor(join(dataDir, 'document', 'local.db'), join(dataDir, 'rebuild-floor.db'));
  const { events, perSecond: rebuildRate } = figures;
  const floorRate = events / floor.totalS;
  console.log(`rebuild floor: ${fixed(floor.totalS)} s, ${fixed(floorRate, 0)} events/s`);
  return `**Its floor** (bench/rebuild-floor.ts: SQLite alone writing the ${floor.documents.toLocaleString('en')} documents' rows the rebuild ended with into a fresh file, same schema and settings, no event read, parsed or folded; ${floorLoad}): ${fixed(floor.totalS)} s (rows ${fixed(floor.rowsS)} s, indexes ${fixed(floor.indexesS)} s, WAL copied ${fixed(floor.walS)} s; CPU ${fixed(floor.cpuS)} s), **${fixed(floorRate, 0)} events/s** of the rebuild's ${events.toLocaleString('en')}; the rebuild at **${fixed((rebuildRate / floorRate) * 100, 0)}%** of it`;
}
/**
 * The rebuild once more under V8's CPU profiler, when it missed its target: the command's own process
 * (no pnpm or tsx parent), self time by module and by function.
 */
async function rebuildProfileNote(): Promise<string> {
  console.log('views:rebuild again, CPU-profiled');
  const { result: status, summary } = await profileProcesses(
    (env) =>
      spawnSync(process.execPath, ['src/views/rebuild-cli.ts'], {
        cwd: resolve(import.meta.dirname, '../services/document'),
        env: { ...process.env, DOCFLOW_DATA_DIR: dataDir, ...env },
        stdio: ['ignore', 'ignore', 'inherit'],
      }).status,
  );
  if (status !== 0) return `Its profile: not taken (the profiled rebuild ended with ${status}).\n`;
  return `The rebuild missed its target (${REBUILD_TARGET.toLocaleString('en')} events/s), so it ran once more under V8's CPU profiler (the whole command; profiling slows it down, the shares are what counts). SQLite's own work shows either as the native function that ran it (\`exec\` for the indexes, the commits in \`sqliteTransaction\`) or inside the function that called it (the inserts in the writer's \`write\`):\n\n${summary}\n`;
}
const adminKey = newAdminKey();
try {
  console.log(`seeding ${DOCUMENTS.toLocaleString('en')} documents into ${dataDir}`);
  const before = existsSync(join(dataDir, SEED_FILE))
    ? (JSON.parse(readFileSync(join(dataDir, SEED_FILE), 'utf8')) as SeedRecord).stored
    : 0;
  const seedStarted = performance.now();
  const seeded = await seedViews({
    dataDir,
    documents: DOCUMENTS,
    onProgress: (done, total, rate) =>
      process.stdout.write(progressLine('seeding documents', done, total, rate)),
  });
  const seedS = (performance.now() - seedStarted) / 1000;
  console.log(`\nseeded ${seeded.appended} documents (${before} were there) in ${fixed(seedS)} s`);
  const total = seeded.record.appendS ?? seeded.appendS;
  const seedNote = `${DOCUMENTS.toLocaleString('en')} documents appended in ${fixed(total)} s (${fixed(DOCUMENTS / Math.max(total, 1e-9), 0)} documents/s${seeded.record.load ? `, ${seeded.record.load} when the seeding started` : ''})${before ? `; ${before.toLocaleString('en')} of them by an earlier run (this run: ${seeded.appended} more, ${fixed(seedS)} s)` : `; ${fixed(seedS)} s with the templates through the API`}`;

  let rebuildNote = 'skipped (VIEWS_REBUILD=skip): the views of an earlier run';
  let rebuildProfile = '';
  if (REBUILD) {
    const rebuildLoad = loadNote();
    const run = spawnSync('pnpm', ['--filter', '@docflow/document', 'views:rebuild'], {
      env: { ...process.env, DOCFLOW_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    process.stdout.write(run.stdout);
    if (run.status !== 0) throw new Error(`views:rebuild: exit ${run.status}`);
    const line = /views: rebuilt in .*/.exec(run.stdout)?.[0] ?? '(no summary line)';
    rebuildNote = `\`${line.replace('views: ', '')}\` (${rebuildLoad})`;
    rebuildNote += `. ${floorNote(line)}`;
    const figures = rebuilt(line);
    if (figures && figures.perSecond < REBUILD_TARGET) rebuildProfile = `\n${await rebuildProfileNote()}`;
  }

  const docflow = await startEmbedded({ dataDir, adminKey, logFile: newLogFile('views') });
  const figures: Figures[] = [];
  let peak = 0;
  let catchUpS = 0;
  /** The first listing's first request once `/readyz` answered, and the backlog (events) just after it. */
  let first = { ms: 0, behind: 0 };
  let startUp = { p50: 0, p99: 0 };
  const headers = { authorization: `Bearer ${adminKey}` };
  try {
    const list = async (path: string, extra: Record<string, string> = {}) => {
      const res = await fetch(`${docflow.baseUrl}/api/v2/docForm/view/${path}`, {
        headers: { ...headers, ...extra },
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      return Number(res.headers.get('svc-total-count'));
    };
    /** Events the catch-up subscriptions have yet to apply or publish (BACKLOG_GAUGES), summed. */
    const backlog = async () => {
      const text = await (await fetch(`${docflow.baseUrl}/metrics`)).text();
      let sum = 0;
      for (const name of BACKLOG_GAUGES) {
        const series = [...text.matchAll(new RegExp(`^${name}\\{[^}]*\\} (\\d+)$`, 'gm'))];
        if (series.length === 0) throw new Error(`/metrics has no ${name}`);
        for (const [, value] of series) sum += Number(value);
      }
      return sum;
    };
    const extraOf = (listing: Listing): Record<string, string> => (listing.bob ? { 'svc-run-as': BOB } : {});
    const loadOf = (listing: Listing) => ({
      url: `${docflow.baseUrl}/api/v2/docForm/view/${pathOf(listing)}`,
      headers: { ...headers, ...extraOf(listing) },
      connections: CONNECTIONS,
    });
    const ready = async () => {
      const res = await fetch(`${docflow.baseUrl}/readyz`);
      await res.arrayBuffer();
      return res.ok;
    };
    const catchUpStarted = performance.now();
    const waitFor = async (what: string, done: () => Promise<boolean>) => {
      while (!(await done())) {
        if ((performance.now() - catchUpStarted) / 1000 > CATCH_UP_MAX_S)
          throw new Error(`${what} within ${CATCH_UP_MAX_S} s`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    await waitFor('docflow was not ready', ready);
    const firstStarted = performance.now();
    await list(pathOf(listings[0]!), extraOf(listings[0]!));
    first = { ms: performance.now() - firstStarted, behind: await backlog() };
    console.log(
      `first request after the start: ${fixed(first.ms)} ms (${first.behind} events still to catch up)`,
    );
    await waitFor(
      'the views did not list every document',
      async () => (await list('all?pageSize=1')) === DOCUMENTS + TEMPLATE_DOCUMENTS,
    );
    await waitFor('a catch-up subscription was still behind', async () => (await backlog()) === 0);
    catchUpS = (performance.now() - catchUpStarted) / 1000;
    startUp = await load({ ...loadOf(listings[0]!), duration: START_UP_S });
    console.log(`the first ${START_UP_S} s under load: p50 ${startUp.p50} ms, p99 ${startUp.p99} ms`);

    for (const listing of listings) {
      const matching = await list(pathOf(listing), extraOf(listing));
      const options = loadOf(listing);
      await load({ ...options, duration: WARM_UP_S });
      const figure = await load({ ...options, duration: DURATION_S });
      console.log(
        `${listing.bob ? 'bob' : 'admin'} ${pathOf(listing)}: ${matching} match, p50 ${figure.p50} ms, p99 ${figure.p99} ms, ${fixed(figure.rps, 0)}/s`,
      );
      figures.push({
        listing,
        matching,
        load: figure,
        reference: { p50: 0, p99: 0, runs: 0 },
        reader: { first: 0, p50: 0, p99: 0 },
      });
    }
    peak = peakMiB(docflow.pids().docflow!);
  } finally {
    await docflow.stop();
  }

  console.log('references: the read model’s statements for each listing, directly on its database');
  const seed = seeded.record;
  const db = openLocalDb(join(dataDir, 'document', 'local.db'));
  const views = createViewsReadModel(db, createDeputiesReadModel(db));
  const principal = (bob?: boolean): Principal =>
    bob
      ? { account: seed.bob, subject: seed.bob, roles: [] }
      : { account: seed.admin, subject: seed.admin, roles: ['svcAdminDocsRW', 'svcAdminSysRW'] };
  const docOf = db.prepare('SELECT doc FROM view_docs WHERE id = ?').pluck();
  for (const f of figures) {
    const { view, query, bob } = f.listing;
    const plan = views.plan(view, { first: 0, pageSize: 20, ...query }, principal(bob));
    const count = plan.count ? db.prepare(plan.count.sql).pluck() : undefined;
    const page = db.prepare<unknown[], { id: string }>(plan.page.sql);
    const latencies: number[] = [];
    const t0 = performance.now();
    while (latencies.length < REFERENCE_RUNS && performance.now() - t0 < REFERENCE_MAX_MS) {
      const t = performance.now();
      count?.get(...plan.count!.params);
      for (const row of page.all(...plan.page.params)) docOf.get(row.id);
      latencies.push(performance.now() - t);
    }
    f.reference = { p50: percentile(latencies, 50), p99: percentile(latencies, 99), runs: latencies.length };
    const request = { first: 0, pageSize: 20, ...query };
    const first = performance.now();
    views.query(view, request, principal(bob));
    const firstMs = performance.now() - first;
    const kept: number[] = [];
    const t1 = performance.now();
    while (kept.length < REFERENCE_RUNS && performance.now() - t1 < REFERENCE_MAX_MS) {
      const t = performance.now();
      views.query(view, request, principal(bob));
      kept.push(performance.now() - t);
    }
    f.reader = { first: firstMs, p50: percentile(kept, 50), p99: percentile(kept, 99) };
  }
  db.close();

  // A listing none of whose requests answered within the run is the slowest, and misses.
  const p99Of = (f: Figures) => (f.load.requests === 0 ? Number.POSITIVE_INFINITY : f.load.p99);
  const slowest = figures.reduce((a, b) => (p99Of(b) > p99Of(a) ? b : a));
  const met = figures.every((f) => p99Of(f) <= targetOf(f.listing) && f.load.failures === 0);
  const latency = (f: Figures, ms: number) =>
    f.load.requests === 0 ? `none answered in ${DURATION_S} s` : fixed(ms);
  const rows = figures
    .map(
      (f) =>
        `| ${f.listing.bob ? 'bob' : 'admin'} | ${f.listing.name}: \`${pathOf(f.listing)}\` | ${f.matching} | ${latency(f, f.load.p50)} | ${latency(f, f.load.p99)} | ${fixed(f.load.rps, 0)} | ${f.load.requests} (${f.load.failures}) | ${fixed(f.reference.p50, 2)} / ${fixed(f.reference.p99, 2)} | ${fixed(f.reader.first, 2)}; ${fixed(f.reader.p50, 2)} / ${fixed(f.reader.p99, 2)} |`,
    )
    .join('\n');
  const firstListing = `${listings[0]!.bob ? 'bob' : 'admin'} \`${pathOf(listings[0]!)}\``;
  const million = DOCUMENTS >= 1_000_000;
  const heading = ONLY_SEARCH
    ? `## Issue 17: full-text search (\`?q=\`) at ${DOCUMENTS.toLocaleString('en')} documents (${new Date().toISOString().slice(0, 10)})`
    : million
      ? `## Issue 14: views at ${DOCUMENTS.toLocaleString('en')} documents (${new Date().toISOString().slice(0, 10)})`
      : `## View listings on ${DOCUMENTS.toLocaleString('en')} documents: docflow beside the read model's SQL run directly`;
  const command = `${ONLY_SEARCH ? 'VIEWS_LISTINGS=search ' : ''}VIEWS_DOCUMENTS=${DOCUMENTS} VIEWS_DATA_DIR=<dir> pnpm exec tsx bench/views.ts`;
  const body = `${heading}

Command: \`${million || ONLY_SEARCH ? command : '`pnpm bench` (this part: `pnpm exec tsx bench/views.ts`)'}\` · ${new Date().toISOString()} · ${machine()} · ${started}; ${loadNote().replace('at start', 'at the end')}

- Seeding (bench/seed-views.ts: real events through the embedded event store's \`append\`, group commits of 2,000 documents): ${seedNote}.
- Rebuild (\`views:rebuild\`, offline): ${rebuildNote}.
- docflow started on it: ready (\`/readyz\`), then **the first request after the start** (${firstListing}, alone): **${fixed(first.ms)} ms**, ${first.behind.toLocaleString('en')} events left to its catch-up subscriptions just after it (each gauge counts up to 100,000); every document listed and none of them behind (views, audit heads, relays: \`${BACKLOG_GAUGES.join('`, `')}\` at 0) ${fixed(catchUpS, 1)} s after the start; then the same listing under load for ${START_UP_S} s (the process's own warm-up): p50 ${startUp.p50} ms, p99 ${startUp.p99} ms; and only then the listings below (steady state).
- **Peak RSS (VmHWM) of the embedded docflow process** serving these listings: **${peak} MiB** (target ≤ 512 MiB: ${verdict(peak <= 512)}).
${rebuildProfile}
Listings, autocannon ${CONNECTIONS} connections, ${WARM_UP_S} s warm-up then ${DURATION_S} s each, as the admin (svcAdminDocsRW) or as
bob (run-as, no admin role: his \`all\` is what he authored or takes part in; his own documents, 1%, are as many as
tag \`${AUDIT_TAG}\`'s). Reference: the read model's statements for the listing (\`plan\`), run one after another
directly on local.db, with each document's JSON read (p50 / p99, ms: a total counted every time); beside it the read
model's \`query\` in process, documents parsed: the first call (its total counted), then p50 / p99 with the total kept
until a projection batch touches its keys (total-cache.ts; a total of at most 2,000 keeps its matches from the second
call on, read once as the count reads them, and pages are slices of them). A search (\`q\`) is the FTS5 match joined to the
listing's rows, ranked by BM25 (services/document/src/views/planner.ts); one of common words only with 10,000 matches
or more walks the listing's range newest first, probing the FTS5 index per row, its total counted up to 10,000
(\`svc-total-count-relation: gte\`, the "match" column then says 10000); its reference is the same statements.${ONLY_SEARCH ? ' The plain `all` (no `q`) is there as a control: the same HTTP path under the same load.' : ''}
Target: every p99 ≤ ${TARGET_P99_MS} ms, a search's ≤ ${SEARCH_TARGET_P99_MS} ms: **${verdict(met)}**;
slowest: **${slowest.listing.bob ? 'bob' : 'admin'} \`${pathOf(slowest.listing)}\`, p99 ${latency(slowest, slowest.load.p99)}${slowest.load.requests ? ' ms' : ''}**.

| caller | listing | match | p50, ms | p99, ms | listings/s | requests (failures) | reference p50 / p99, ms | query(): first; p50 / p99, ms |
|---|---|---|---|---|---|---|---|---|
${rows}`;
  writeSection(ONLY_SEARCH ? `issue-17-search-${DOCUMENTS}` : million ? 'issue-14-views' : 'views', body);
  console.log(body);
} finally {
  if (!KEPT_DIR) rmSync(dataDir, { recursive: true, force: true });
}
