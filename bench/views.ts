/**
 * View listing benchmark on 100,000 documents. Seeding: persons bob, carol and dave and two template
 * documents are created through the API of a fresh embedded docflow, which is stopped: a draft memo and
 * a memo whose approval started (bob's open task). Their events are copied, with new ids, tags and
 * times, into the document service's event store (one transaction, the store's own table); docflow is
 * started again and its view projection catches up from those events (the real code path: measured).
 * Then listings under autocannon, the headline one beside the read model's own SQL for it executed
 * directly on the read model database. Bounded by counts and time.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openLocalDb } from '../packages/kit/src/local-db';
import type { Principal } from '../packages/kit/src/principal';
import { createDeputiesReadModel } from '../services/document/src/views/deputies';
import { createViewsReadModel } from '../services/document/src/views/read-model';
import { createDoc, createPerson } from '../tests/support/documents';
import { apiClient } from '../tests/support/http';
import { newAdminKey, startEmbedded } from '../tests/support/targets';
import { profiledRun } from './profile';
import { machine, writeSection } from './results';
import { fixed, type LoadFigures, load, loadNote, newLogFile, percentile, verdict } from './support';

const DOCUMENTS = 100_000;
/** 1 in WORKFLOW_EVERY documents is a copy of the memo in approval (bob's open task), the rest drafts. */
const WORKFLOW_EVERY = 10;
const CONNECTIONS = 10;
const DURATION_S = 10;
const OTHER_DURATION_S = 5;
const CATCH_UP_MAX_S = 90;
const PROFILE_S = 5;
const DIRECT_QUERIES = 2_000;
const DIRECT_MAX_MS = 10_000;
const PAGE_SIZE = 20;
/** tags are combined with AND: 1 in 10 documents carries t3, a third of those are invoices, so 6,666 match. */
const HEADLINE = `mydocs?form=memo&tags=t3&pageSize=${PAGE_SIZE}`;
const BOB = 'bob@example.com';
const OTHERS: { name: string; path: string; runAs?: string }[] = [
  { name: '`all` as admin, one state', path: `all?state=1&pageSize=${PAGE_SIZE}` },
  { name: '`all` as reader bob (not admin), a tag', path: `all?tags=t5&pageSize=${PAGE_SIZE}`, runAs: BOB },
  { name: 'headline, deep page', path: `mydocs?form=memo&tags=t3&first=5000&pageSize=${PAGE_SIZE}` },
];
/** The previous run of this benchmark (bench/RESULTS.md of ffe7984): one wide table, tags as IN subqueries. */
const BEFORE = { p50: 992, p99: 7496, directP50: 123.35, directP99: 156.36, rps: 7 };

interface TemplateEvent {
  type: string;
  version: number;
  data: string;
  metadata: string;
}

const started = loadNote();
const dataDir = mkdtempSync(join(tmpdir(), 'docflow-bench-views-'));
const adminKey = newAdminKey();
try {
  console.log('persons and two template documents through the API');
  const bootStarted = performance.now();
  const first = await startEmbedded({ dataDir, adminKey });
  const bootS = (performance.now() - bootStarted) / 1000;
  try {
    const api = apiClient(first.baseUrl);
    for (const p of ['bob', 'carol', 'dave']) await createPerson(api, adminKey, `${p}@example.com`);
    for (const docResponse of [undefined, { taskstatus: 100 }]) {
      const created = await createDoc(first.baseUrl, adminKey, 'memo', {
        docForm: { valuesByTags: { subject: 'template', body: 'view bench' }, _tags: ['template'] },
        ...(docResponse ? { docResponse } : {}),
      });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
    }
    // The workflow facts reach the document's stream asynchronously.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const inbox = await api('GET', '/api/v2/docForm/view/inbox', { key: adminKey, runAs: BOB });
      if (inbox.headers.get('svc-total-count') === '1') break;
      if (Date.now() > deadline) throw new Error('the template never reached bob’s inbox');
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await first.stop();
  }

  const storeFile = first.eventStoreFile('document');
  const store = new Database(storeFile);
  const streams = store
    .prepare<[], string>("SELECT DISTINCT stream_id FROM events WHERE stream_id LIKE 'docForm-%'")
    .pluck()
    .all();
  const eventsOf = (stream: string) =>
    store
      .prepare<[string], TemplateEvent>(
        'SELECT type, version, data, metadata FROM events WHERE stream_id = ? ORDER BY revision',
      )
      .all(stream);
  const templates = streams.map((s) => ({ id: s.slice('docForm-'.length), events: eventsOf(s) }));
  const draft = templates.find((t) => t.events.length === 1);
  const inApproval = templates.find((t) => t.events.some((e) => e.data.includes('TaskOpened')));
  if (!draft || !inApproval) throw new Error('templates: a draft and a memo in approval expected');

  console.log(`writing the events of ${DOCUMENTS - 2} more documents into the document event store`);
  const seedStarted = performance.now();
  const insert = store.prepare(
    `INSERT INTO events (stream_id, revision, id, type, version, data, metadata, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const t0 = Date.parse(JSON.parse(draft.events[0]!.metadata).timestamp as string);
  let events = 0;
  store.transaction(() => {
    const recordedAt = new Date().toISOString();
    for (let i = 1; i < DOCUMENTS - 1; i++) {
      const template = i % WORKFLOW_EVERY === 5 ? inApproval : draft;
      const id = randomBytes(12).toString('hex');
      const at = new Date(t0 + i).toISOString();
      template.events.forEach((event, n) => {
        const data = JSON.parse(event.data.replaceAll(template.id, id)) as Record<string, unknown>;
        if (n === 0) {
          data.form = i % 3 === 0 ? 'invoice' : 'memo';
          data.tags = [`t${i % 10}`, `g${i % 100}`];
          data.valuesByTags = { subject: `Document ${i}`, body: 'view bench' };
        }
        const metadata = { ...JSON.parse(event.metadata), timestamp: at };
        insert.run(
          `docForm-${id}`,
          n + 1,
          randomUUID(),
          event.type,
          event.version,
          JSON.stringify(data),
          JSON.stringify(metadata),
          recordedAt,
        );
        events++;
      });
    }
  })();
  const head = store.prepare<[], number>('SELECT max(position) FROM events').pluck().get()!;
  store.close();
  // As if each had been relayed to the bus when appended: the relay does not publish them now, so the
  // catch-up below is the view projection's alone.
  const localDb = new Database(join(dataDir, 'document', 'local.db'));
  localDb
    .prepare("UPDATE checkpoints SET position = ? WHERE name = 'document-relay'")
    .run(String(head).padStart(16, '0'));
  localDb.close();
  const seedS = (performance.now() - seedStarted) / 1000;

  console.log(`docflow again: the view projection catches up on ${events} events`);
  const catchUpStarted = performance.now();
  const docflow = await startEmbedded({ dataDir, adminKey, logFile: newLogFile('views') });
  const headers = { authorization: `Bearer ${adminKey}` };
  const list = async (path: string, extra: Record<string, string> = {}) => {
    const res = await fetch(`${docflow.baseUrl}/api/v2/docForm/view/${path}`, {
      headers: { ...headers, ...extra },
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return Number(res.headers.get('svc-total-count'));
  };
  let catchUpS = 0;
  const figures: { name: string; path: string; matching: number; load: LoadFigures }[] = [];
  try {
    for (;;) {
      if ((await list('all?pageSize=1')) === DOCUMENTS) break;
      if ((performance.now() - catchUpStarted) / 1000 > CATCH_UP_MAX_S)
        throw new Error(`the projection did not catch up in ${CATCH_UP_MAX_S} s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    catchUpS = (performance.now() - catchUpStarted) / 1000;

    for (const [i, listing] of [{ name: 'headline', path: HEADLINE }, ...OTHERS].entries()) {
      const extra: Record<string, string> = listing.runAs ? { 'svc-run-as': listing.runAs } : {};
      const url = `${docflow.baseUrl}/api/v2/docForm/view/${listing.path}`;
      const matching = await list(listing.path, extra);
      console.log(`listing: ${url} (${matching} match)`);
      const options = { url, headers: { ...headers, ...extra }, connections: CONNECTIONS };
      await load({ ...options, duration: i === 0 ? 2 : 1 });
      const figure = await load({ ...options, duration: i === 0 ? DURATION_S : OTHER_DURATION_S });
      figures.push({ ...listing, matching, load: figure });
    }
  } finally {
    await docflow.stop();
  }

  console.log('the read model’s SQL for the headline, directly on its database');
  const db = openLocalDb(join(dataDir, 'document', 'local.db'));
  const admin: Principal = {
    account: 'usr-00000000-0000-0000-0000-000000000001',
    subject: 'usr-00000000-0000-0000-0000-000000000001',
    roles: ['svcAdminDocsRW'],
  };
  const plan = createViewsReadModel(db, createDeputiesReadModel(db)).plan(
    'mydocs',
    { first: 0, pageSize: PAGE_SIZE, form: ['memo'], tags: ['t3'] },
    admin,
  );
  if (!plan.count) throw new Error('the headline was expected to count rows');
  const count = db.prepare(plan.count.sql).pluck();
  const page = db.prepare<unknown[], { id: string }>(plan.page.sql);
  const docOf = db.prepare('SELECT doc FROM view_docs WHERE id = ?').pluck();
  const latencies: number[] = [];
  const directStarted = performance.now();
  while (latencies.length < DIRECT_QUERIES && performance.now() - directStarted < DIRECT_MAX_MS) {
    const t = performance.now();
    count.get(...plan.count.params);
    for (const row of page.all(...plan.page.params)) docOf.get(row.id);
    latencies.push(performance.now() - t);
  }
  const directPerSecond = latencies.length / ((performance.now() - directStarted) / 1000);
  const explain = (statement: { sql: string; params: unknown[] }) =>
    db
      .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${statement.sql}`)
      .all(...statement.params)
      .map((row) => row.detail)
      .join('; ');
  const oneLine = (sql: string) => sql.replace(/\s+/g, ' ');
  const sqlNote = `count: \`${oneLine(plan.count.sql)}\` (${explain(plan.count)}) · page: \`${oneLine(plan.page.sql)}\` (${explain(plan.page)}), then \`SELECT doc FROM view_docs WHERE id = ?\` per row`;
  db.close();

  const headline = figures[0]!;
  const met = headline.load.p99 <= 50;
  const profile = met
    ? ''
    : await profiledRun(PROFILE_S, async (env) => {
        const again = await startEmbedded({ dataDir, adminKey, env, logFile: newLogFile('views-profiled') });
        try {
          await load({
            url: `${again.baseUrl}/api/v2/docForm/view/${HEADLINE}`,
            headers,
            connections: CONNECTIONS,
            duration: PROFILE_S,
          });
        } finally {
          await again.stop();
        }
      });
  const eventsPerSecond = events / catchUpS;
  const otherRows = figures
    .slice(1)
    .map(
      (f) =>
        `| ${f.name}: \`${f.path}\`${OTHERS.find((o) => o.path === f.path)?.runAs ? ' (run as bob)' : ''} | ${f.matching} | ${fixed(f.load.p50)} | ${fixed(f.load.p99)} | ${fixed(f.load.rps, 0)} | ${f.load.requests} (${f.load.failures}) |`,
    )
    .join('\n');
  const body = `## View listing on ${DOCUMENTS.toLocaleString('en')} documents: docflow beside the read model's SQL run directly

Command: \`pnpm bench\` (this part: \`pnpm exec tsx bench/views.ts\`) · ${new Date().toISOString()} · ${machine()} · ${started}
Seeding: persons bob, carol, dave and two memos created through the API (stopped service): a draft, and one whose
approval started (bob's open task). Their events were copied ${DOCUMENTS - 2} times with new ids and event ids into the
document service's event store (one transaction, ${events} events, ${fixed(seedS, 1)} s): every ${WORKFLOW_EVERY}th document a copy of the one
in approval, the rest drafts; form \`memo\` (every third \`invoice\`), tags \`t0\`–\`t9\` and \`g0\`–\`g99\` in turn, a
millisecond apart; the document relay's checkpoint set past them (as if published when appended). docflow was started again and its view projection caught up on them: **${fixed(catchUpS, 1)} s from process start
to all ${DOCUMENTS.toLocaleString('en')} listed, ${fixed(eventsPerSecond, 0)} events/s** (process start alone: ${fixed(bootS, 1)} s; events applied up to
500 per transaction; local.db commits are not fsynced since 681eb76). Before e4e03ae (put() deleted a document's tag, task and reader rows by unindexed columns, so
each event cost time linear in the documents), seeding through the read model's \`put\` did not finish in 9 minutes.

Listings as admin (the author of all of them) unless said, autocannon ${CONNECTIONS} connections, 2 s warm-up then
${DURATION_S} s for the headline (others 1 s, then ${OTHER_DURATION_S} s). Reference: the statements the read model runs for the headline
(\`createViewsReadModel(db, deputies).plan(...)\`): the count, the page of ids, then each document's JSON by id (not parsed),
prepared once and run one after another on the read model's SQLite file (${latencies.length} times).

Headline: \`GET /api/v2/docForm/view/${HEADLINE}\` (${headline.matching} match). Before: the previous run of this
benchmark (bench/RESULTS.md of ffe7984, load average 3.3 then; one wide \`view_docs\` table with the document JSON,
tags as \`id IN (SELECT ...)\`, the read model seeded by hand-written INSERTs).

| measure | before: docflow | before: SQL directly | now: docflow | now: SQL directly (reference) | target |
|---|---|---|---|---|---|
| p50 latency, ms | ${BEFORE.p50} (${CONNECTIONS} in flight) | ${BEFORE.directP50} | ${fixed(headline.load.p50)} (${CONNECTIONS} in flight) | ${fixed(percentile(latencies, 50), 2)} (one at a time) | |
| p99 latency, ms | ${BEFORE.p99} (${CONNECTIONS} in flight) | ${BEFORE.directP99} | ${fixed(headline.load.p99)} (${CONNECTIONS} in flight) | ${fixed(percentile(latencies, 99), 2)} (one at a time) | ≤ 50 ms: ${verdict(met)} |
| listings/s | ${BEFORE.rps} | 8 | ${fixed(headline.load.rps, 0)} | ${fixed(directPerSecond, 0)} | |
| requests (failures) | | | ${headline.load.requests} (${headline.load.failures}) | ${latencies.length} | |

Other listings (docflow, ${CONNECTIONS} connections):

| listing | match | p50, ms | p99, ms | listings/s | requests (failures) |
|---|---|---|---|---|---|
${otherRows}

How the read model answers (services/document/src/views/planner.ts): the tag, open-task and reader rows repeat
the document's filter columns and \`created\`, keyed \`(key, created, id)\`; \`view_docs\` has covering indexes led by
author, form, state and \`created\`. A listing is driven by the key range with the fewest rows, read from row counts
per key kept by \`put\` in \`view_counts\`; the other conditions are checked on the range's rows (a tag or membership
that does not drive: an index probe per row for the page; for the count, when its range is at most 4 times the driving
one, the two ranges are intersected, a merge). A count walks its range, for a tag, task or reader range narrowed by
form and author through a second index \`(key, form, author, state, status, step, iteration)\`: it costs in proportion
to what it walks (the headline: the ${headline.matching} entries of \`t3\`, \`memo\`, admin). **When the driving range is the listing's only condition, the total is
that kept row count, not a walk** (here: \`all?state=1\`; also an unfiltered \`mydocs\`, \`inbox\` or \`all\`). Nothing
is cached per query. The headline's statements and SQLite's plans: ${sqlNote}.
${profile}`;
  writeSection('views', body);
  console.log(body);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
