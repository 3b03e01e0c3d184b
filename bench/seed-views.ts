/**
 * Seeds a data directory with N documents (default 1,000,000) for the view benchmark, through the
 * real event store: `pnpm exec tsx bench/seed-views.ts --dir <data dir> [--documents N]` (or
 * DOCFLOW_DATA_DIR / SEED_DOCUMENTS).
 *
 * A fresh directory first gets the admin, the person bob, and one template document per form and
 * workflow state (views-dataset.ts) created through the API of an embedded docflow, which is then
 * stopped. Each seeded document is a template's events with new ids (document, task and workflow
 * source ids), its author, assignee, tags and time from `documentShape`, appended with
 * `EventStore.append` (expected revision 0, the store's own validation) by the embedded SQLite adapter,
 * BATCH appends per group commit (one fsync). The document relay's checkpoint is then set past them (as
 * if each had been published when appended; the bus has no one to tell), so the next start's view
 * projection (or `views:rebuild`) is what reads them. The audit heads (services/document/src/audit/) are
 * then brought up to date and anchored in a checkpoint here, as a running docflow keeps them: else the
 * next start replays every seeded event into them, on the event loop that serves the listings
 * (bench/RESULTS.md, the clean-clone run: the first listing measured had p99 705 ms), and its first
 * checkpoint, a minute later, anchors every seeded document at once (requests held up to ~0.8 s).
 *
 * Resumable and idempotent: ids are derived from the document's number, `seed.json` records how many
 * are stored, a rerun continues from there, and appending a document that is already stored is a
 * no-op for the store (same event ids, same expected revision). Refuses a directory in use.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import type { EventStore, NewEvent } from '../packages/eventstore/src/port';
import { createSqliteEventStore } from '../packages/eventstore/src/sqlite';
import { lockDataDir } from '../packages/kit/src/data-dir-lock';
import { checkpointStore, openLocalDb } from '../packages/kit/src/local-db';
import { createLogger } from '../packages/kit/src/logger';
import { startCheckpoints } from '../services/document/src/audit/checkpoints';
import { progressLine } from '../services/document/src/views/progress';
import { createDoc, createPerson, eventually } from '../tests/support/documents';
import { apiClient } from '../tests/support/http';
import { newAdminKey, startEmbedded } from '../tests/support/targets';
import { documentShape, FORMS, TEMPLATES, type TemplateName } from './views-dataset';

export const SEED_FILE = 'seed.json';
/** Documents appended per group commit. */
const BATCH = 2_000;
const PROGRESS_EVERY_MS = 1_000;
const TEMPLATE_SETTLE_MS = 30_000;
const HEADS_POLL_MS = 200;
/** The workflow command that puts a new document in each template's state. */
const COMMANDS: Record<TemplateName, number | undefined> = {
  draft: undefined,
  approval: 100,
  execution: 106,
  archived: 107,
};

export interface SeedRecord {
  /** How many documents are stored (numbers 0 … stored-1). */
  stored: number;
  /** Seconds spent appending them, over every run, and the load average when the last run started. */
  appendS?: number;
  load?: string;
  admin: string;
  bob: string;
  /** Events of each template document, by `<form>/<template>`, with the ids to replace. */
  templates: Record<string, { id: string; events: TemplateEvent[] }>;
}

interface TemplateEvent {
  type: string;
  version: number;
  data: string;
  metadata: string;
}

/** Persons and template documents through the API of a fresh docflow, read back from its store. */
async function createTemplates(dataDir: string): Promise<Omit<SeedRecord, 'stored'>> {
  const adminKey = newAdminKey();
  const docflow = await startEmbedded({ dataDir, adminKey });
  const ids = new Map<string, string>();
  let bob = '';
  try {
    const api = apiClient(docflow.baseUrl);
    bob = await createPerson(api, adminKey, 'bob@example.com');
    for (const p of ['carol', 'dave']) await createPerson(api, adminKey, `${p}@example.com`);
    for (const form of FORMS) {
      for (const template of TEMPLATES) {
        if (form === 'contract' && template !== 'draft') continue;
        const command = COMMANDS[template];
        const created = await createDoc(docflow.baseUrl, adminKey, form, {
          docForm: { valuesByTags: {}, _tags: ['template'] },
          ...(command ? { docResponse: { taskstatus: command } } : {}),
        });
        if (created.status !== 201 || created.headers.get('x-error'))
          throw new Error(`template ${form}/${template}: ${created.status} ${created.text}`);
        ids.set(`${form}/${template}`, created.body._id as string);
      }
    }
    // Workflow facts reach the documents' streams asynchronously: wait until the last is in.
    const settled = await eventually(
      async () =>
        (
          await api('GET', '/api/v2/docForm/view/inbox', { key: adminKey, runAs: 'dave@example.com' })
        ).headers.get('svc-total-count'),
      (n) => n === '2',
      TEMPLATE_SETTLE_MS,
    );
    if (settled !== '2') throw new Error('the templates’ workflow facts never arrived');
  } finally {
    await docflow.stop();
  }
  const store = new Database(join(dataDir, 'document', 'events.db'), { readonly: true });
  const eventsOf = store.prepare<[string], TemplateEvent>(
    'SELECT type, version, data, metadata FROM events WHERE stream_id = ? ORDER BY revision',
  );
  const templates: SeedRecord['templates'] = {};
  for (const [name, id] of ids) templates[name] = { id, events: eventsOf.all(`docForm-${id}`) };
  store.close();
  // The admin authored the templates.
  const admin = (JSON.parse(templates['memo/draft']!.events[0]!.data) as { author: string }).author;
  return { admin, bob, templates };
}

/** A stable hex string from a document number and a label. */
const derived = (i: number, label: string, length: number) =>
  createHash('sha256').update(`views-seed:${i}:${label}`).digest('hex').slice(0, length);
const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;

/** 24-hex ids and UUIDs (not the `usr-` ids of people) a template's events carry. */
const OWN_IDS =
  /(?<![-\w])[0-9a-f]{24}(?![\w])|(?<!usr-)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

/** The events of document number `i`: its template's, with its own ids, people, tags and time. */
export function seededEvents(i: number, record: SeedRecord, people: { bob: string; dave: string }) {
  const shape = documentShape(i);
  const template = record.templates[`${shape.form}/${shape.template}`]!;
  const renamed = new Map<string, string>();
  const secondsHex = Math.floor(shape.createdMs / 1000)
    .toString(16)
    .padStart(8, '0');
  const rename = (text: string) =>
    text.replace(OWN_IDS, (old) => {
      let id = renamed.get(old);
      if (!id) {
        const hex = derived(i, `${template.id}:${old}`, 32);
        // A 24-hex id starts with its time in seconds, as newHexId makes them (they sort by creation).
        id = old.length === 24 ? secondsHex + hex.slice(0, 16) : uuidOf(hex);
        renamed.set(old, id);
      }
      return id;
    });
  const author =
    shape.author.kind === 'admin' ? record.admin : shape.author.kind === 'bob' ? record.bob : shape.author.id;
  const assignee = shape.assignee.kind === 'bob' ? record.bob : shape.assignee.id;
  const id = rename(template.id);
  const at = new Date(shape.createdMs);
  const events: NewEvent[] = template.events.map((event, n) => {
    // The template's assignee (bob in approval, dave in execution) becomes this document's.
    const text = rename(event.data)
      .replaceAll(people.bob, assignee)
      .replaceAll(people.dave, assignee)
      .replaceAll(record.admin, author);
    const data = JSON.parse(text) as Record<string, unknown>;
    if (n === 0) {
      data.author = author;
      data.tags = shape.tags;
      data.valuesByTags = { subject: `Document ${i}`, body: 'view bench' };
    }
    const metadata = JSON.parse(event.metadata) as NewEvent['metadata'];
    return {
      id: uuidOf(derived(i, `event:${n}`, 32)),
      type: event.type,
      version: event.version,
      data,
      metadata: { ...metadata, timestamp: new Date(at.getTime() + n * 1000).toISOString() },
    };
  });
  return { id, events };
}

export interface SeedOptions {
  dataDir: string;
  documents: number;
  /** Called about once a second while appending. */
  onProgress?: (stored: number, total: number, perSecond: number) => void;
}

/** Seeds (or completes) `dataDir`; answers the record and how long the appends took. */
export async function seedViews({ dataDir, documents, onProgress }: SeedOptions) {
  const seedFile = join(dataDir, SEED_FILE);
  let record: SeedRecord;
  if (existsSync(seedFile)) record = JSON.parse(readFileSync(seedFile, 'utf8')) as SeedRecord;
  else {
    if (existsSync(join(dataDir, 'document', 'events.db')))
      throw new Error(`${dataDir} holds a docflow data directory that this script did not seed`);
    record = { stored: 0, ...(await createTemplates(dataDir)) };
    writeFileSync(seedFile, JSON.stringify(record));
  }
  const people = { bob: record.bob, dave: assigneeOf(record.templates['memo/execution']!.events) };
  const documentDir = join(dataDir, 'document');
  const lock = lockDataDir(documentDir);
  const store = createSqliteEventStore({ file: join(documentDir, 'events.db') });
  const started = performance.now();
  const from = record.stored;
  const appendedBefore = record.appendS ?? 0;
  if (from < documents) record.load = `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;
  let lastShown = 0;
  let position = '';
  try {
    for (let first = from; first < documents; first += BATCH) {
      const last = Math.min(documents, first + BATCH);
      const appends: Promise<{ position: string }>[] = [];
      for (let i = first; i < last; i++) {
        const { id, events } = seededEvents(i, record, people);
        appends.push(store.append(`docForm-${id}`, events, 0));
      }
      for (const result of await Promise.all(appends))
        if (result.position > position) position = result.position;
      record.stored = last;
      record.appendS = appendedBefore + (performance.now() - started) / 1000;
      writeFileSync(seedFile, JSON.stringify(record));
      if (performance.now() - lastShown > PROGRESS_EVERY_MS || last === documents) {
        lastShown = performance.now();
        onProgress?.(last, documents, (last - from) / ((performance.now() - started) / 1000));
      }
    }
    await anchorAuditHeads(store, join(documentDir, 'local.db'));
  } finally {
    await store.close();
  }
  if (position) {
    // As if each had been relayed to the bus when appended (see the module comment).
    const local = new Database(join(documentDir, 'local.db'));
    local
      .prepare(
        "INSERT INTO checkpoints (name, position) VALUES ('document-relay', ?) ON CONFLICT(name) DO UPDATE SET position = excluded.position WHERE excluded.position > position",
      )
      .run(position);
    local.close();
  }
  lock.release();
  return {
    record,
    appendS: (performance.now() - started) / 1000,
    appended: documents - Math.min(from, documents),
  };
}

/**
 * Applies every stored document event to the audit heads and anchors them in an audit checkpoint, as
 * the document service does (services/document/src/audit/checkpoints.ts), also in a directory seeded
 * before they were kept.
 */
async function anchorAuditHeads(store: EventStore, localFile: string): Promise<void> {
  const db = openLocalDb(localFile);
  const checkpoints = startCheckpoints(store, db, createLogger('seed-views', 'warn'), HEADS_POLL_MS);
  const positions = checkpointStore(db);
  const changed = db.prepare('SELECT COUNT(*) FROM audit_heads WHERE changed = 1').pluck();
  const anchored = async () => {
    const head = await store.headPosition({ streamPrefixes: ['docForm-'] });
    return (positions.load('audit-heads') ?? '') >= (head ?? '') && changed.get() === 0;
  };
  try {
    while (!(await anchored())) await sleep(HEADS_POLL_MS);
  } finally {
    await checkpoints.stop();
    db.close();
  }
}

/** The assignee of the task a template opens. */
function assigneeOf(events: readonly TemplateEvent[]): string {
  for (const event of events) {
    const assignee = /"assignee":"(usr-[^"]+)"/.exec(event.data)?.[1];
    if (assignee) return assignee;
  }
  throw new Error('the execution template has no task');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { dir: { type: 'string' }, documents: { type: 'string' } },
  });
  const dataDir = resolve(
    process.env.INIT_CWD ?? process.cwd(),
    values.dir ?? process.env.DOCFLOW_DATA_DIR ?? '',
  );
  const documents = Number(values.documents ?? process.env.SEED_DOCUMENTS ?? 1_000_000);
  if (!(values.dir ?? process.env.DOCFLOW_DATA_DIR) || !Number.isInteger(documents) || documents < 1) {
    console.error('usage: tsx bench/seed-views.ts --dir <data dir> [--documents N]  (default 1000000)');
    process.exit(2);
  }
  const { appendS, appended } = await seedViews({
    dataDir,
    documents,
    onProgress: (done, total, rate) =>
      process.stdout.write(progressLine('seeding documents', done, total, rate)),
  });
  console.log(`\nseeded ${appended} documents in ${appendS.toFixed(1)} s into ${dataDir}`);
}
