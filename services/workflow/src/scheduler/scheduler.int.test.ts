/**
 * The scheduler on real event stores with a clock the test moves: a reminder and a deadline fire once
 * each across a restart (the due deadline passed while no scheduler ran) and with two schedulers on
 * one store — on SQLite (embedded mode) and on a shared PostgreSQL store with the lease (distributed).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type WorkflowConfig, workflowStream } from '@docflow/contracts';
import {
  createPostgresEventStore,
  createSqliteEventStore,
  type EventStore,
  type ServiceLease,
  type Subscription,
} from '@docflow/eventstore';
import { createLogger, newHexId } from '@docflow/kit';
import { executeCommand } from '@docflow/kit/eventsourcing';
import { workflowAggregate } from '../aggregate';
import { decideCommand } from '../businessLogic';
import { manualClock } from './clock';
import { startScheduler } from './scheduler';

const log = createLogger('test', 'silent');
const usr = (n: number) => `usr-00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const [AUTHOR, ALICE, BOSS] = [usr(1), usr(2), usr(3)];
const HOUR = 3_600_000;
const START = new Date('2026-03-02T10:00:00.000Z');
const WORKFLOW: WorkflowConfig = {
  approval: {
    stages: [
      {
        participants: [ALICE],
        deadline: { within: 'P2D', remindBefore: 'PT4H', escalation: { action: 'notify', contacts: [BOSS] } },
      },
    ],
  },
};

async function until(cond: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Approves after silence into a second stage whose escalation contact is an address no account held
 * when the document was created: that stage cannot start, so the escalation cannot act.
 */
const STUCK: WorkflowConfig = {
  approval: {
    stages: [
      { participants: [ALICE], deadline: { within: 'P2D', escalation: { action: 'autoAnswer', answer: 2 } } },
      {
        participants: [BOSS],
        deadline: { within: 'P2D', escalation: { action: 'notify', contacts: ['nobody@example.com'] } },
      },
    ],
  },
};

/** A document in approval since `at`, its stage due two days later. */
async function startedDocument(store: EventStore, at: Date, workflow = WORKFLOW): Promise<string> {
  const docId = newHexId();
  const meta = { correlationId: randomUUID(), timestamp: at.toISOString() };
  const ctx = {
    at: at.toISOString(),
    newId: () => newHexId(),
    participants: {},
    deputiesOf: {},
    principal: { subject: AUTHOR, roles: [], isServiceAccount: false },
  };
  const registration = { docId, form: 'memo', author: AUTHOR, workflow, at: ctx.at };
  await executeCommand(
    store,
    workflowStream(docId),
    workflowAggregate,
    (s) => decideCommand(registration, { kind: 'create', taskstatus: 100 }, ctx, s),
    meta,
  );
  return docId;
}

const typesOf = async (store: EventStore, docId: string) =>
  (await store.readStream(workflowStream(docId))).map((e) => e.type);
const count = (types: string[], type: string) => types.filter((t) => t === type).length;

/** The same story on any store: `open` gives a scheduler process its own store (and lease) on it. */
function scenario(open: () => { store: EventStore; lease?: ServiceLease; close(): Promise<void> }) {
  return async () => {
    const clock = manualClock(START);
    const processes = [open(), open()];
    const [a, b] = processes as [(typeof processes)[0], (typeof processes)[0]];
    const running: Subscription[] = [];
    const run = (p: typeof a) => {
      const scheduler = startScheduler({ store: p.store, lease: p.lease, clock, pollMs: 20, log });
      running.push(scheduler);
      return scheduler;
    };
    try {
      const doc = await startedDocument(a.store, START);
      // One scheduler: the reminder, at its time and not before.
      let first = run(a);
      clock.advance(44 * HOUR);
      await until(async () => (await typesOf(a.store, doc)).includes('TasksDueSoon'));
      // The scheduler passed again once a document whose reminder is due now was reminded too.
      const sentinel = await startedDocument(a.store, new Date(clock.now().getTime() - 44 * HOUR));
      await until(async () => (await typesOf(a.store, sentinel)).includes('TasksDueSoon'));
      assert.equal(count(await typesOf(a.store, doc), 'TasksDueSoon'), 1, 'reminded once');
      // Down while the deadline passes; after the restart the due deadline fires.
      await first.stop();
      clock.advance(5 * HOUR);
      first = run(a);
      const second = run(b);
      await until(async () => (await typesOf(a.store, doc)).includes('TasksEscalated'));
      // Both schedulers have passed again once a second document's deadline fired too.
      const later = await startedDocument(a.store, clock.now());
      clock.advance(49 * HOUR);
      await until(async () => (await typesOf(b.store, later)).includes('TasksEscalated'));
      await Promise.all([first.stop(), second.stop()]);
      const types = await typesOf(a.store, doc);
      assert.deepEqual(
        ['TasksDueSoon', 'TasksOverdue', 'TasksEscalated'].map((t) => count(types, t)),
        [1, 1, 1],
        types.join(', '),
      );
      assert.equal(count(await typesOf(a.store, later), 'TasksOverdue'), 1);
    } finally {
      await Promise.all(running.map((r) => r.stop()));
      for (const p of processes) await p.close();
    }
  };
}

describe('stage deadline scheduler', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-scheduler-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  // One process's store (embedded mode), shared by both schedulers in it.
  const sqlite = createSqliteEventStore({ file: join(dir, 'events.db'), pollIntervalMs: 20 });
  after(() => sqlite.close());
  it(
    'SQLite: fires the reminder and the deadline once each, across a restart and with two schedulers',
    scenario(() => ({ store: sqlite, close: async () => {} })),
  );

  it('a workflow whose escalation cannot act holds up no other, and is tried again later', async () => {
    const clock = manualClock(START);
    const scheduler = startScheduler({ store: sqlite, clock, pollMs: 20, log });
    try {
      const stuck = await startedDocument(sqlite, START, STUCK);
      const fine = await startedDocument(sqlite, START);
      clock.advance(49 * HOUR);
      await until(async () => (await typesOf(sqlite, fine)).includes('TasksEscalated'));
      assert.deepEqual(await typesOf(sqlite, stuck), [
        'WorkflowRegistered',
        'PhaseStarted',
        'StageStarted',
        'TaskOpened',
      ]);
    } finally {
      await scheduler.stop();
    }
  });

  const url = process.env.POSTGRES_URL;
  const required = process.env.DOCFLOW_ENGINES_REQUIRED === '1';
  const schema = `sched_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  it(
    'PostgreSQL, two processes with the lease: fires once each, across a restart',
    { skip: url || required ? undefined : 'no PostgreSQL: POSTGRES_URL is not set (.infra/env)' },
    scenario(() => {
      assert.ok(url, 'DOCFLOW_ENGINES_REQUIRED=1 but POSTGRES_URL is not set');
      const store = createPostgresEventStore({ connectionString: url, schema, pollIntervalMs: 20 });
      return { store, lease: store.serviceLease(600), close: () => store.close() };
    }),
  );
});
