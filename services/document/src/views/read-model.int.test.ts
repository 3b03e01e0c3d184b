/**
 * The view read model against a brute-force filter in JS: a few hundred random documents (put, changed
 * and put again, some deleted), then every view with random filter combinations and pages, as admin,
 * as author, as reader and as deputy; totals and page order must match exactly.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type DocPhase,
  type DocStatus,
  STATE_CODES,
  STATUS_CODES,
  searchWords,
  type ViewId,
  type ViewQuery,
} from '@docflow/contracts';
import { checkpointStore, type LocalDb, openLocalDb } from '@docflow/kit/eventsourcing';
import type { Principal } from '@docflow/kit/http';
import { inboxAssignees, isDeleted, type Task } from '@docflow/workflow-model';
import { participantsOf } from '../documents/access';
import { type DocState, initialDoc } from '../documents/docForm';
import { createDeputiesReadModel } from './deputies';
import { createViewsReadModel } from './read-model';
import { SEARCH_TABLE, VIEWS_PROJECTION } from './schema';
import { matchExpression, SEARCH_WEIGHTS, searchTerms, searchTextOf } from './search';

/** Deterministic PRNG (mulberry32), so a failure repeats. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const USERS = ['usr-a', 'usr-b', 'usr-c', 'usr-d', 'usr-e', 'usr-f'];
const FORMS = ['memo', 'invoice', 'contract'];
const TAGS = ['t0', 't1', 't2', 't3', 't4'];
/** Words of the documents' values, file names and recognised text, and of searches. */
const WORDS = ['Apple', 'apricot', 'crème', 'Delta9', 'delta', 'épée', 'invoice', 'zebra'];
/** Characters that separate words in a search; FTS5 query syntax among them. */
const SEPARATORS = [' ', '  ', '"', '*', ' - ', ':', ' NEAR(', ')', '^', ' OR ', '+', "'"];
/** A search term is common here from this many documents on (a few words are, most are not). */
const COMMON_TERMS_HERE = 125;
const PHASES = Object.keys(STATE_CODES) as DocPhase[];
const STATUSES = (Object.keys(STATUS_CODES) as DocStatus[]).filter((s) => s !== 'deleted');
/** usr-d stands in for usr-a and usr-b (enabled), and for usr-c (disabled). */
const DEPUTIES: [string, string, number][] = [
  ['usr-a', 'usr-d', 1],
  ['usr-b', 'usr-d', 1],
  ['usr-c', 'usr-d', 0],
];

function generator(seed: number) {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const some = <T>(xs: readonly T[], p: number): T[] => xs.filter(() => rnd() < p);
  function doc(id: string): DocState {
    const tasks: Record<string, Task> = {};
    for (let k = Math.floor(rnd() * 4); k > 0; k--) {
      const respId = `${id}-${k}`;
      tasks[respId] = {
        respId,
        phase: 'approval',
        step: 1,
        iteration: 1,
        assignee: pick(USERS),
        state: pick(['open', 'answered', 'cancelled'] as const),
        taskstatus: 0,
        content: '',
        openedAt: '',
      };
    }
    const status = rnd() < 0.08 ? 'deleted' : pick(STATUSES);
    const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
    return {
      ...initialDoc,
      valuesByTags: {
        subject: words(Math.floor(rnd() * 3)),
        ...(rnd() < 0.2 ? { lines: [[words(1), 'x'], [`${words(1)}-${words(1)}`]] } : {}),
      },
      files: some(WORDS, 0.1).map((w, k) => ({
        id: `f${k}`,
        fileName: `${w.toLowerCase()}_${k}.pdf`,
        size: 1,
        sha256: '',
        contentType: 'application/pdf',
      })),
      recoText: rnd() < 0.3 ? [words(1 + Math.floor(rnd() * 5))] : [],
      exists: true,
      id,
      form: pick(FORMS),
      author: pick(USERS),
      phase: pick(PHASES),
      status,
      step: Math.floor(rnd() * 3),
      iteration: Math.floor(rnd() * 3),
      tags: some(TAGS, 0.35),
      // Few distinct times: ties are ordered by id.
      created: new Date(Date.UTC(2026, 0, 1, 0, Math.floor(rnd() * 60))).toISOString(),
      workflow: { ...initialDoc.workflow, status, tasks },
    };
  }
  function query(): ViewQuery {
    const q: ViewQuery = { first: pick([0, 0, 0, 3, 17, 150]), pageSize: pick([1, 5, 20, 100]) };
    if (rnd() < 0.3) q.state = STATE_CODES[pick(PHASES)];
    if (rnd() < 0.2) q.step = Math.floor(rnd() * 3);
    if (rnd() < 0.2) q.iteration = Math.floor(rnd() * 3);
    if (rnd() < 0.3) q.status = STATUS_CODES[pick(STATUSES)];
    if (rnd() < 0.4)
      q.form = [pick(FORMS), ...some(FORMS, 0.3), 'nosuchform'].slice(0, 1 + Math.floor(rnd() * 3));
    if (rnd() < 0.3) q.author = [pick(USERS), ...some(USERS, 0.3)];
    if (rnd() < 0.5) q.tags = [pick(TAGS), ...some(TAGS, 0.25)];
    if (rnd() < 0.3) q.q = search();
    return q;
  }
  /** A search: words in any case, the last one perhaps cut short, between separators and FTS5 syntax. */
  function search(): string {
    const words = Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => {
      const word = rnd() < 0.2 ? pick(TAGS) : pick(WORDS);
      return rnd() < 0.3 ? word.toUpperCase() : word;
    });
    const last = words.length - 1;
    if (rnd() < 0.3) words[last] = words[last]!.slice(0, 1 + Math.floor(rnd() * words[last]!.length));
    return words.map((w) => `${pick(SEPARATORS)}${w}`).join('') + (rnd() < 0.5 ? pick(SEPARATORS) : '');
  }
  return { doc, query, pick, rnd };
}

/** A word as the search tokenizer folds it: lower case, without diacritics. */
const folded = (word: string) => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The document's words as the search table holds them. */
function wordsOf(doc: DocState): Set<string> {
  const { fields, text } = searchTextOf(doc);
  return new Set(searchWords(`${fields} ${text}`).map(folded));
}

/** Whether the words hold a term of `searchTerms` (`"word"`, or `"word"*`: a word starting so). */
function holds(words: Set<string>, term: string): boolean {
  const prefix = term.endsWith('*');
  const word = folded(term.slice(1, prefix ? -2 : -1));
  return prefix ? [...words].some((w) => w.startsWith(word)) : words.has(word);
}

/**
 * How a search is answered (reader.ts, planner.ts): ranked by BM25 of its rarer terms (all of them when
 * none is common, the rarer ones when some are: terms of at least COMMON_TERMS_HERE listed documents);
 * of common terms only, not ranked (the listing's order), and with at least COMMON_TERMS_HERE matches
 * its total counted up to COMMON_TERMS_HERE.
 */
function searchShape(docs: Map<string, DocState>, search: string): { ranked: string[]; many: boolean } {
  const terms = searchTerms(search);
  const listed = [...docs.values()].filter((d) => !isDeleted(d.workflow)).map(wordsOf);
  const matching = (ts: string[]) => listed.filter((words) => ts.every((t) => holds(words, t))).length;
  const rare = terms.filter((t) => matching([t]) < COMMON_TERMS_HERE);
  return { ranked: rare, many: rare.length === 0 && matching(terms) >= COMMON_TERMS_HERE };
}

/** The BM25 score SQLite gives each document an FTS5 query matches (the model does not compute BM25). */
function scores(db: LocalDb, search: string): Map<string, number> {
  const rows = db
    .prepare<[string], { id: string; score: number }>(
      `SELECT d.id, bm25(s.${SEARCH_TABLE}, ${SEARCH_WEIGHTS.join(', ')}) AS score
       FROM ${SEARCH_TABLE} s JOIN view_docs d ON d.rowid = s.rowid WHERE s.${SEARCH_TABLE} MATCH ?`,
    )
    .all(search);
  return new Map(rows.map((r) => [r.id, r.score]));
}

function expected(docs: Map<string, DocState>, view: ViewId, q: ViewQuery, p: Principal, db: LocalDb) {
  const acting = new Set([
    p.subject,
    ...DEPUTIES.filter(([, d, on]) => d === p.subject && on).map(([u]) => u),
  ]);
  const matches = [...docs.values()].filter((doc) => {
    if (isDeleted(doc.workflow)) return false;
    if (view === 'mydocs' && doc.author !== p.subject) return false;
    if (view === 'inbox' && !inboxAssignees(doc.workflow).some((u) => acting.has(u))) return false;
    if (
      view === 'all' &&
      !p.roles.includes('svcAdminDocsRW') &&
      ![doc.author, ...participantsOf(doc)].some((u) => acting.has(u))
    )
      return false;
    if (q.state !== undefined && STATE_CODES[doc.phase] !== q.state) return false;
    if (q.step !== undefined && doc.step !== q.step) return false;
    if (q.iteration !== undefined && doc.iteration !== q.iteration) return false;
    if (q.status !== undefined && STATUS_CODES[doc.status] !== q.status) return false;
    if (q.form?.length && !q.form.includes(doc.form)) return false;
    if (q.author?.length && !q.author.includes(doc.author)) return false;
    if (q.q !== undefined && !searchTerms(q.q).every((term) => holds(wordsOf(doc), term))) return false;
    return (q.tags ?? []).every((t) => doc.tags.includes(t));
  });
  const shape = q.q === undefined ? { ranked: [], many: false } : searchShape(docs, q.q);
  const score =
    shape.ranked.length > 0 ? scores(db, matchExpression(shape.ranked)) : new Map<string, number>();
  const scoreOf = (id: string) => {
    if (shape.ranked.length === 0) return 0;
    const s = score.get(id);
    assert.ok(s !== undefined, `${id} matches ${q.q} but has no search row`);
    return s;
  };
  matches.sort(
    (x, y) =>
      scoreOf(x.id) - scoreOf(y.id) ||
      (x.created === y.created ? (x.id < y.id ? 1 : -1) : x.created < y.created ? 1 : -1),
  );
  const bounded = shape.many && matches.length > COMMON_TERMS_HERE;
  return {
    total: bounded ? COMMON_TERMS_HERE : matches.length,
    totalRelation: bounded ? 'gte' : 'eq',
    ids: matches.slice(q.first, q.first + q.pageSize).map((d) => d.id),
    /** Whether the search ranks by some of its terms only. */
    split: shape.ranked.length > 0 && shape.ranked.length < searchTerms(q.q ?? '').length,
    /** Whether it is of common terms only with many matches (walked by the listing's range, probed). */
    walked: shape.many,
  };
}

/** An empty read model in memory, DEPUTIES in its deputies table. */
function withDeputies() {
  const db = openLocalDb(':memory:');
  const views = createViewsReadModel(db, createDeputiesReadModel(db), COMMON_TERMS_HERE);
  const insertDeputy = db.prepare(
    'INSERT INTO view_deputies (user_id, deputy_id, enabled, revision) VALUES (?, ?, ?, 1)',
  );
  for (const row of DEPUTIES) insertDeputy.run(...row);
  return { db, views };
}

describe('view read model', () => {
  it('lists what a brute-force filter lists, for every view and random filters', () => {
    const { db, views } = withDeputies();
    const g = generator(42);
    const docs = new Map<string, DocState>();
    const put = (doc: DocState) => {
      views.put(doc);
      docs.set(doc.id, doc);
    };
    for (let i = 0; i < 400; i++) put(g.doc(`doc${String(i).padStart(4, '0')}`));
    // Changes: new filters, tags and tasks for some, deletion for others, and a deleted one back.
    for (let i = 0; i < 400; i += 3) put(g.doc(`doc${String(i).padStart(4, '0')}`));
    for (const doc of [...docs.values()].slice(0, 5))
      put({ ...doc, workflow: { ...doc.workflow, status: 'deleted' } });
    for (const doc of [...docs.values()].slice(0, 2))
      put({ ...doc, workflow: { ...doc.workflow, status: 'draft' } });

    const principals: Principal[] = [
      { account: 'usr-admin', subject: 'usr-admin', roles: ['svcAdminDocsRW'] },
      ...USERS.map((u): Principal => ({ account: u, subject: u, roles: [] })),
      { account: 'usr-a', subject: 'usr-a', roles: ['svcAdminDocsRW'] },
    ];
    let checked = 0;
    let nonEmpty = 0;
    let searchedMany = 0;
    let split = 0;
    let walked = 0;
    let bounded = 0;
    for (let i = 0; i < 1500; i++) {
      const view = g.pick(['mydocs', 'inbox', 'all'] as const);
      const principal = g.pick(principals);
      const q = g.query();
      const want = expected(docs, view, q, principal, db);
      // Twice: asked again, a counted total's matches are read and kept, the page sliced from them.
      for (const ask of [1, 2]) {
        const got = views.query(view, q, principal);
        const what = `ask ${ask}: ${view} as ${principal.subject} ${JSON.stringify(q)}`;
        assert.equal(got.total, want.total, `total of ${what}`);
        assert.equal(got.totalRelation, want.totalRelation, `total relation of ${what}`);
        assert.deepEqual(
          got.docs.map((d) => d.id),
          want.ids,
          `page of ${what}`,
        );
      }
      checked++;
      if (want.walked && want.total > 1) walked++;
      if (want.totalRelation === 'gte') bounded++;
      if (want.total > 0) nonEmpty++;
      if (q.q !== undefined && want.total > 1) searchedMany++;
      if (want.split && want.total > 1) split++;
    }
    assert.ok(nonEmpty > checked / 3, `too few queries with matches (${nonEmpty} of ${checked})`);
    assert.ok(searchedMany > 100, `too few searches with several matches (${searchedMany})`);
    assert.ok(split > 20, `too few searches ranked by their rarer terms (${split})`);
    assert.ok(walked > 20, `too few searches of common terms with many matches (${walked})`);

    // Each word alone, without filters: the common ones match more than the bound for some callers.
    for (const principal of principals) {
      for (const view of ['mydocs', 'inbox', 'all'] as const) {
        for (const word of WORDS) {
          const q: ViewQuery = { first: 0, pageSize: 20, q: word };
          const want = expected(docs, view, q, principal, db);
          const got = views.query(view, q, principal);
          assert.deepEqual(
            [got.total, got.totalRelation],
            [want.total, want.totalRelation],
            `${view} ${word}`,
          );
          assert.deepEqual(
            got.docs.map((d) => d.id),
            want.ids,
          );
          if (want.totalRelation === 'gte') bounded++;
        }
      }
    }
    assert.ok(bounded > 5, `too few totals counted up to the bound (${bounded})`);

    // Without filters (the totals then come from the kept row counts).
    for (const principal of principals) {
      for (const view of ['mydocs', 'inbox', 'all'] as const) {
        const q: ViewQuery = { first: 0, pageSize: 100 };
        const want = expected(docs, view, q, principal, db);
        const got = views.query(view, q, principal);
        assert.equal(got.total, want.total, `${view} as ${principal.subject}`);
        assert.deepEqual(
          got.docs.map((d) => d.id),
          want.ids,
        );
      }
    }

    // One search row per listed document: a deleted one's went with it.
    const live = [...docs.values()].filter((d) => !isDeleted(d.workflow)).length;
    assert.equal(db.prepare(`SELECT count(*) FROM ${SEARCH_TABLE}`).pluck().get(), live);
    assert.equal(db.prepare('SELECT count(*) FROM view_docs').pluck().get(), live);

    // A document reads back as it was put; clear() empties every view.
    const some = [...docs.values()].find((d) => !isDeleted(d.workflow))!;
    assert.deepEqual(views.get(some.id), some);
    views.clear();
    assert.equal(views.query('all', { first: 0, pageSize: 10 }, principals[0]!).total, 0);
    assert.equal(views.get(some.id), undefined);
    assert.equal(db.prepare(`SELECT count(*) FROM ${SEARCH_TABLE}`).pluck().get(), 0);
    db.close();
  });

  it('keeps each total exact while documents change between listings (kept totals dropped by the writes that touch them)', () => {
    const { db, views } = withDeputies();
    const g = generator(7);
    const docs = new Map<string, DocState>();
    const idOf = (i: number) => `doc${String(i).padStart(4, '0')}`;
    const batch = (changed: DocState[]) => {
      views.putAll(changed);
      for (const doc of changed) docs.set(doc.id, doc);
    };
    batch(Array.from({ length: 300 }, (_, i) => g.doc(idOf(i))));
    const principals: Principal[] = [
      { account: 'usr-admin', subject: 'usr-admin', roles: ['svcAdminDocsRW'] },
      ...USERS.map((u): Principal => ({ account: u, subject: u, roles: [] })),
    ];
    // A fixed set of listings asked again and again, so most totals are kept ones.
    const listings = Array.from({ length: 60 }, () => ({
      view: g.pick(['mydocs', 'inbox', 'all'] as const),
      principal: g.pick(principals),
      q: g.query(),
    }));
    let changedTotals = 0;
    for (let round = 0; round < 40; round++) {
      // One batch: a few documents changed (filters, tags, tasks), new, deleted, or back.
      const changed = Array.from({ length: 1 + Math.floor(g.rnd() * 4) }, () => {
        const id = idOf(Math.floor(g.rnd() * 320));
        const doc = g.doc(id);
        const before = docs.get(id);
        // Sometimes only a column no kept count names (step) changes, tags and readers kept.
        return before && g.rnd() < 0.3 ? { ...before, step: (before.step + 1) % 3 } : doc;
      });
      const before = listings.map(({ view, q, principal }) => expected(docs, view, q, principal, db).total);
      batch(changed);
      listings.forEach(({ view, q, principal }, i) => {
        const want = expected(docs, view, q, principal, db);
        if (want.total !== before[i]) changedTotals++;
        // Twice: a listing asked again keeps its matches (a few), read by the rounds after.
        for (const ask of [1, 2]) {
          const got = views.query(view, q, principal);
          const what = `round ${round}, ask ${ask}: ${view} as ${principal.subject} ${JSON.stringify(q)}`;
          assert.equal(got.total, want.total, `total of ${what}`);
          assert.deepEqual(
            got.docs.map((d) => d.id),
            want.ids,
            `page of ${what}`,
          );
        }
      });
    }
    assert.ok(changedTotals > 40, `too few totals changed by the batches (${changedTotals})`);
    db.close();
  });

  it('answers a listing again from its kept total until a write touches one of its keys', () => {
    const db = openLocalDb(':memory:');
    const views = createViewsReadModel(db, createDeputiesReadModel(db));
    const g = generator(3);
    const docs = Array.from({ length: 50 }, (_, i) => ({
      ...g.doc(`doc${i}`),
      workflow: { ...initialDoc.workflow, status: 'draft' as const, tasks: {} },
      tags: i % 2 ? ['t0', 't1'] : ['t0'],
      form: i % 3 ? 'memo' : 'invoice',
    }));
    views.putAll(docs);
    const admin: Principal = { account: 'usr-admin', subject: 'usr-admin', roles: ['svcAdminDocsRW'] };
    const twoTags: ViewQuery = { first: 0, pageSize: 5, tags: ['t0', 't1'] };
    assert.equal(views.query('all', twoTags, admin).total, 25);
    // A row removed behind the writer's back: the kept total stays (the page is read again).
    db.prepare("DELETE FROM view_doc_tags WHERE tag = 't1' AND id = 'doc1'").run();
    assert.equal(views.query('all', twoTags, admin).total, 25);
    // A write touching t0 alone (a document without t1) leaves the total kept too.
    const even = docs[0]!;
    views.put({ ...even, form: even.form === 'memo' ? 'invoice' : 'memo' });
    assert.equal(views.query('all', twoTags, admin).total, 25);
    // A write touching both tags drops it: counted again (with the row removed above: 24, then 23).
    views.put({ ...docs[3]!, tags: ['t0'] });
    assert.equal(views.query('all', twoTags, admin).total, 23);

    // Asked again: its matches are kept with the total, and its pages are read from them.
    const page = (first: number) => views.query('all', { ...twoTags, first }, admin).docs.map((d) => d.id);
    const kept = [page(0), page(5)];
    const newest = kept[0]![0]!;
    // The newest match's t1 row removed behind the writer's back: the kept pages stay.
    db.prepare("DELETE FROM view_doc_tags WHERE tag = 't1' AND id = ?").run(newest);
    assert.deepEqual([page(0), page(5)], kept);
    // Dropped with the total by a write touching both tags: read again, without it.
    const touching = docs.find((d) => d.id !== newest && d.tags.includes('t1'))!;
    views.put({ ...touching, tags: ['t0'] });
    const again = page(0);
    assert.equal(again.length, 5);
    assert.ok(!again.includes(newest) && !again.includes(touching.id), `${again} without ${newest}`);
    db.close();
  });

  it('drops the tables of another layout and the projection checkpoint with them', () => {
    const db = openLocalDb(':memory:');
    // The layout before view_meta: no version, a checkpoint and rows of the old view_docs.
    db.exec(`CREATE TABLE view_docs (id TEXT PRIMARY KEY, form TEXT NOT NULL, author TEXT NOT NULL,
      state INTEGER NOT NULL, step INTEGER NOT NULL, iteration INTEGER NOT NULL, status INTEGER NOT NULL,
      created TEXT NOT NULL, doc TEXT NOT NULL);
      CREATE TABLE view_doc_tags (tag TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (tag, id)) WITHOUT ROWID;
      CREATE TABLE view_deputies (user_id TEXT PRIMARY KEY, deputy_id TEXT NOT NULL, enabled INTEGER NOT NULL);
      INSERT INTO view_docs VALUES ('x', 'memo', 'usr-a', 0, 0, 0, 1, '2026-01-01T00:00:00.000Z', '{}');
      INSERT INTO view_deputies VALUES ('usr-a', 'usr-d', 1);`);
    const checkpoints = checkpointStore(db);
    checkpoints.save(VIEWS_PROJECTION, '0000000000000042');
    checkpoints.save('other', '0000000000000007');

    const views = createViewsReadModel(db, createDeputiesReadModel(db));
    assert.equal(checkpoints.load(VIEWS_PROJECTION), undefined);
    assert.equal(checkpoints.load('other'), '0000000000000007');
    assert.equal(views.get('x'), undefined);
    // The deputies of the layout before revisions go too: the rebuild from identity fills them.
    assert.equal(db.prepare('SELECT count(*) FROM view_deputies').pluck().get(), 0);

    // The same layout again: nothing is dropped.
    const doc = generator(1).doc('y');
    views.put({ ...doc, workflow: { ...doc.workflow, status: 'draft' } });
    checkpoints.save(VIEWS_PROJECTION, '0000000000000043');
    const again = createViewsReadModel(db, createDeputiesReadModel(db));
    assert.equal(checkpoints.load(VIEWS_PROJECTION), '0000000000000043');
    assert.equal(again.get('y')?.id, 'y');
    db.close();
  });
});
