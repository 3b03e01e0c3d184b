/**
 * The views projection on a real SQLite event store: documents whose events arrive in several
 * batches (folded from their stored state) and in one (folded in memory) end up alike, equal to a
 * fold of their streams with the zod-parsing aggregate, with every kept count equal to a recount of
 * the rows; a rebuild (online, and offline without the listing indexes) gives the very same tables.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createSqliteEventStore, type NewEvent } from '@docflow/eventstore';
import { createLogger } from '@docflow/kit';
import { type LocalDb, openLocalDb } from '@docflow/kit/eventsourcing';
import { docAggregate, initialDoc } from '../documents/docForm';
import { createDeputiesReadModel } from './deputies';
import { createViewsProjection } from './projection';
import { createViewsReadModel } from './read-model';
import { FACET_PREFIX, facetOf, MEMBERSHIPS, SEARCH_TABLE, VIEW_TABLES } from './schema';

const DOCUMENTS = 40;
const TAGS = ['red', 'green', 'blue'];
const AUTHORS = ['usr-a', 'usr-b', 'usr-c'];

const event = (type: string, data: Record<string, unknown>, at: number): NewEvent => ({
  id: randomUUID(),
  type,
  version: 1,
  data,
  metadata: {
    correlationId: randomUUID(),
    timestamp: new Date(Date.UTC(2026, 0, 1) + at * 1000).toISOString(),
  },
});

const created = (i: number) =>
  event(
    'DocumentCreated',
    {
      id: `doc${i}`,
      form: i % 2 ? 'memo' : 'invoice',
      formsystype: 1,
      author: AUTHORS[i % AUTHORS.length],
      valuesByTags: { subject: `document ${i}` },
      tags: [TAGS[i % TAGS.length]],
      files: [],
      datedue: '',
    },
    i,
  );
const retagged = (i: number, round: number) =>
  event(
    'DocumentFieldsUpdated',
    { valuesByTags: { subject: `document ${i}, round ${round}` }, tags: TAGS.slice(0, (i + round) % 4) },
    1000 * round + i,
  );

/** The documents whose search row matches an FTS5 query, by id. */
const matching = (db: LocalDb, match: string) =>
  db
    .prepare<[string], string>(
      `SELECT d.id FROM ${SEARCH_TABLE} s JOIN view_docs d ON d.rowid = s.rowid WHERE s.${SEARCH_TABLE} MATCH ? ORDER BY 1`,
    )
    .pluck()
    .all(match);

/** Every row of the view tables, in a stable order; of the (contentless) search table, what words find. */
function snapshot(db: LocalDb) {
  return Object.fromEntries(
    VIEW_TABLES.map((table) => [
      table,
      table === SEARCH_TABLE
        ? ['document', 'round', '1', '2', '7', ...TAGS].map((word) => [word, matching(db, word)])
        : db.prepare(`SELECT * FROM ${table} ORDER BY ${table === 'view_counts' ? '1' : '1, 2, 3'}`).all(),
    ]),
  );
}

/** The kept counts a recount of the rows gives. */
function recount(db: LocalDb): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (key: string, n: number) => counts.set(key, n);
  const docs = db
    .prepare<
      [],
      { form: string; author: string; state: number; step: number; iteration: number; status: number }
    >('SELECT form, author, state, step, iteration, status FROM view_docs')
    .all();
  add('n', docs.length);
  const bump = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const d of docs) {
    bump(`a:${d.author}`);
    bump(`f:${d.form}`);
    bump(`s:${d.state}`);
    bump(`${FACET_PREFIX}${d.state}|${d.step}|${d.iteration}|${d.status}|${d.form}`);
  }
  for (const m of Object.values(MEMBERSHIPS)) {
    for (const row of db
      .prepare<[], { key: string; n: number }>(
        `SELECT ${m.column} AS key, count(*) AS n FROM ${m.table} GROUP BY 1`,
      )
      .all())
      add(m.countKey(row.key), row.n);
  }
  return counts;
}

describe('views projection', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-views-projection-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('folds across batches and within one alike, keeps exact counts, and rebuilds to the same rows', async () => {
    const store = createSqliteEventStore({ file: join(dir, 'events.db') });
    const db = openLocalDb(join(dir, 'local.db'));
    const views = createViewsReadModel(db, createDeputiesReadModel(db));
    const projection = createViewsProjection(store, db, views, createLogger('test', 'silent'));
    try {
      projection.start();
      // Round 0 creates; rounds 1 and 2 change the tags of every document, each after the projection
      // caught up, so those events meet documents stored by an earlier batch.
      for (let i = 0; i < DOCUMENTS; i++) await store.append(`docForm-doc${i}`, [created(i)], 0);
      for (const round of [1, 2]) {
        assert.equal(await projection.caughtUp(10_000), true);
        for (let i = 0; i < DOCUMENTS; i++)
          await store.append(`docForm-doc${i}`, [retagged(i, round)], round);
      }
      assert.equal(await projection.caughtUp(10_000), true);

      for (let i = 0; i < DOCUMENTS; i++) {
        let expected = initialDoc;
        for (const recorded of await store.readStream(`docForm-doc${i}`))
          expected = docAggregate.evolve(
            expected,
            docAggregate.parse(recorded.type, recorded.data),
            recorded,
          );
        // As stored: JSON (an undefined field is left out).
        assert.deepEqual(views.get(`doc${i}`), JSON.parse(JSON.stringify(expected)), `doc${i}`);
      }
      const kept = new Map(
        db
          .prepare<[], { key: string; n: number }>('SELECT key, n FROM view_counts')
          .all()
          .map((r) => [r.key, r.n]),
      );
      assert.deepEqual(kept, recount(db));
      assert.ok([...kept.keys()].some((k) => k.startsWith(FACET_PREFIX) && facetOf(k).form === 'memo'));
      // The search rows follow the values: the text of round 1 was replaced by round 2's.
      assert.deepEqual(matching(db, '"round 1"'), []);
      assert.equal(matching(db, '"round 2"').length, DOCUMENTS);
      assert.equal(db.prepare(`SELECT count(*) FROM ${SEARCH_TABLE}`).pluck().get(), DOCUMENTS);
      const live = snapshot(db);

      await projection.rebuild();
      assert.deepEqual(snapshot(db), live, 'online rebuild');
      const indexes: string[] = [];
      await projection.rebuild(undefined, { offline: { onIndex: (name) => indexes.push(name) } });
      assert.deepEqual(snapshot(db), live, 'offline rebuild');
      assert.ok(
        indexes.includes('view_docs_newest') && indexes.includes('view_doc_tags_count'),
        indexes.join(),
      );
      const present = db
        .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'index'")
        .pluck()
        .all();
      for (const name of indexes) assert.ok(present.includes(name), `${name} built again`);
    } finally {
      await projection.stop();
      await store.close();
      db.close();
    }
  });
});
