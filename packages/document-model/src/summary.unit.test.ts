/** A document's history in words: a table of entries and the sentence each one reads as. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namedIds, type SummaryEntry, summariseHistory } from './summary';

const ID = {
  alice: 'usr-00000000-0000-4000-8000-00000000000a',
  bob: 'usr-00000000-0000-4000-8000-00000000000b',
  carol: 'usr-00000000-0000-4000-8000-00000000000c',
  dave: 'usr-00000000-0000-4000-8000-00000000000d',
  erin: 'usr-00000000-0000-4000-8000-00000000000e',
  portal: 'usr-00000000-0000-4000-8000-0000000000ff',
};
const NAMES: Record<string, string> = {
  [ID.alice]: 'Alice Example',
  [ID.bob]: 'Bob Example',
  [ID.carol]: 'Carol Example',
  [ID.dave]: 'Dave Example',
  [ID.erin]: '[erased]',
  [ID.portal]: 'Portal',
};
const nameOf = (id: string) => NAMES[id] ?? id;
const UNKNOWN = 'usr-00000000-0000-4000-8000-000000000099';

const at = '2026-11-26T10:00:00.000Z';
const respId = 'a'.repeat(24);
const fileId = 'f'.repeat(24);
const docId = '0'.repeat(24);
const created = (author: string, files: unknown[] = []) => ({
  type: 'DocumentCreated',
  data: {
    id: docId,
    form: 'memo',
    formsystype: 1,
    author,
    valuesByTags: { subject: 'Budget', total: '209.50' },
    tags: [],
    files,
    datedue: '',
  },
});
const wf = (...events: Array<[string, Record<string, unknown>]>) => ({
  type: 'WorkflowChanged',
  data: {
    sourceIds: events.map((_, i) => `s${i}`),
    events: events.map(([type, data]) => ({ type, data: { ...data, at } })),
  },
});
const phaseStarted = (phase: string, iteration = 1): [string, Record<string, unknown>] => [
  'PhaseStarted',
  { phase, iteration, stages: [[ID.bob]] },
];
const opened = (assignee: string, phase = 'approval'): [string, Record<string, unknown>] => [
  'TaskOpened',
  { respId, phase, step: 1, iteration: 1, assignee },
];
const answered = (taskstatus: number, content: string, by: string, onBehalfOf?: string) =>
  [
    'TaskAnswered',
    { respId, taskstatus, content, answeredBy: by, ...(onBehalfOf ? { onBehalfOf } : {}) },
  ] as [string, Record<string, unknown>];
const change = (path: string, before: unknown, after: unknown) => ({ path, before, after });

/** One entry of a request by `actor` (with `runAs`), identified by `correlationId`. */
const entry = (
  event: { type: string; data: unknown },
  changes: SummaryEntry['changes'] = [],
  meta: Partial<SummaryEntry> = {},
): SummaryEntry => ({ ...event, changes, actor: ID.alice, correlationId: 'c1', ...meta });

const cases: Array<{ name: string; entries: SummaryEntry[]; expected: string[] }> = [
  {
    name: 'a person creates a document and starts its approval',
    entries: [
      entry(created(ID.alice)),
      entry(
        wf(
          ['WorkflowRegistered', {}],
          phaseStarted('approval'),
          ['StageStarted', { step: 1 }],
          opened(ID.bob),
        ),
        [change('/state', 0, 1), change('/status', 1, 2), change('/step', 0, 1)],
      ),
    ],
    expected: [
      'Alice Example created the document',
      'Alice Example started approval. Phase: registration → approval. Status: draft → in progress. Waiting for Bob Example',
    ],
  },
  {
    name: 'run-as: the service account acts on behalf of the person, for another author, with files',
    entries: [
      entry(
        created(ID.bob, [
          {
            id: fileId,
            fileName: 'plan.pdf',
            size: 1,
            sha256: 'e'.repeat(64),
            contentType: 'application/pdf',
          },
        ]),
        [],
        { actor: ID.portal, runAs: ID.alice },
      ),
    ],
    expected: ['Portal on behalf of Alice Example created the document for Bob Example with 1 file'],
  },
  {
    name: 'an approval with a comment moves the document to the next phase',
    entries: [
      entry(
        wf(
          answered(2, 'ok', ID.bob),
          ['PhaseCompleted', { phase: 'approval', iteration: 1 }],
          phaseStarted('sign'),
          opened(ID.carol, 'sign'),
        ),
        [change('/state', 1, 2)],
        { actor: ID.bob },
      ),
    ],
    expected: [
      "Bob Example approved with the comment 'ok'. Phase: approval → sign. Waiting for Carol Example",
    ],
  },
  {
    name: 'a signature with edits: the answer, then the edits of the same request',
    entries: [
      entry(
        wf(answered(8, '', ID.carol), ['PhaseCompleted', { phase: 'sign', iteration: 1 }]),
        [change('/status', 2, 4)],
        {
          actor: ID.carol,
          correlationId: 'c2',
        },
      ),
      entry(
        { type: 'DocumentFieldsUpdated', data: { valuesByTags: { total: '209.55' }, tags: [] } },
        [change('/valuesByTags/total', '209.50', '209.55')],
        {
          actor: ID.carol,
          correlationId: 'c2',
        },
      ),
    ],
    expected: [
      'Carol Example signed. Status: in progress → completed',
      'Carol Example signed with edits: total 209.50 → 209.55',
    ],
  },
  {
    name: 'edits without an answer, a table and the tags',
    entries: [
      entry({ type: 'DocumentFieldsUpdated', data: { valuesByTags: { lines: [['a']] }, tags: ['x', 'y'] } }, [
        change('/_tags', ['x'], ['x', 'y']),
        { path: '/valuesByTags/lines', after: [['a']] },
      ]),
    ],
    expected: ['Alice Example edited: tags: x → x, y, lines (none) → a table of 1 row'],
  },
  {
    name: 'a deputy declines for the assignee; the open tasks are cancelled',
    entries: [
      entry(
        wf(
          answered(4, 'no', ID.dave, ID.bob),
          ['TasksCancelled', { respIds: ['b'.repeat(24)], reason: 'declined' }],
          ['PhaseDeclined', { phase: 'approval', iteration: 1, respId }],
        ),
        [change('/status', 2, 5)],
        { actor: ID.dave },
      ),
    ],
    expected: [
      "Dave Example, deputy of Bob Example, declined with the comment 'no'. 1 open task cancelled (declined). Status: in progress → declined",
    ],
  },
  {
    name: 'management moves; a restart; the next step of a phase',
    entries: [
      entry(wf(['WorkflowSuspended', {}]), [change('/status', 2, 3)]),
      entry(
        wf(
          ['TasksCancelled', { respIds: [respId, 'b'.repeat(24)], reason: 'restarted' }],
          phaseStarted('approval', 2),
          opened(ID.bob),
        ),
        [change('/iteration', 1, 2)],
      ),
      entry(
        wf(answered(2, '', ID.bob), ['StageStarted', { step: 2 }], opened(ID.carol)),
        [change('/step', 1, 2)],
        {
          actor: ID.bob,
        },
      ),
      entry(wf(['MovedToArchive', { iteration: 1 }]), [change('/state', 2, 4)]),
    ],
    expected: [
      'Alice Example suspended the workflow. Status: in progress → suspended',
      '2 open tasks cancelled (restarted). Alice Example restarted approval. Waiting for Bob Example',
      'Bob Example approved. Step: 1 → 2. Waiting for Carol Example',
      'Alice Example moved the document to the archive. Phase: sign → archive',
    ],
  },
  {
    name: 'an erased person stays erased; an unknown id shows as itself, never capitalised',
    entries: [
      entry(wf(answered(2, 'fine', ID.erin)), [], { actor: ID.erin }),
      entry(created('usr-gone'), [], { actor: 'usr-gone' }),
      entry(wf(answered(2, '', UNKNOWN)), [change('/state', 1, 2)], { actor: UNKNOWN }),
    ],
    expected: [
      "[erased] approved with the comment 'fine'",
      'usr-gone created the document',
      `${UNKNOWN} approved. Phase: approval → sign`,
    ],
  },
  {
    name: 'recognition results name the file and the forms; validation names the values',
    entries: [
      entry(
        created(ID.alice, [
          {
            id: fileId,
            fileName: 'inv.pdf',
            size: 1,
            sha256: 'e'.repeat(64),
            contentType: 'application/pdf',
          },
        ]),
      ),
      entry(
        {
          type: 'RecognitionRecorded',
          data: {
            sourceId: 's',
            fileId,
            pageCount: 1,
            parts: [
              {
                _id: 'c'.repeat(24),
                pageIdxStart: 0,
                pageIdxEnd: 0,
                recoForm: { form: null, id: 'inv', name: 'Invoice' },
                confidence: 87.4,
                valuesByTags: {},
              },
            ],
          },
        },
        [],
        { actor: undefined },
      ),
      entry({
        type: 'RecognitionFailed',
        data: { sourceId: 's', fileId: 'd'.repeat(24), reason: 'unreadable', detail: '' },
      }),
      entry({
        type: 'RecoDataValidated',
        data: { recoId: 'c'.repeat(24), valuesByTags: { invoiceNo: '42', total: '1' } },
      }),
    ],
    expected: [
      'Alice Example created the document with 1 file',
      "Recognition read 'inv.pdf': Invoice (87%)",
      `Recognition could not read '${'d'.repeat(24)}': unreadable`,
      'Alice Example validated recognised values (invoiceNo, total)',
    ],
  },
  {
    name: 'an event that no longer parses is named by its type',
    entries: [entry({ type: 'DocumentCreated', data: { altered: true } })],
    expected: ['DocumentCreated (recorded in a form this version does not read)'],
  },
];

describe('summariseHistory', () => {
  for (const c of cases)
    it(c.name, () => {
      assert.deepEqual(summariseHistory(c.entries, nameOf), c.expected);
    });
});

describe('namedIds', () => {
  it('lists every id an entry names: actor, run-as, author, assignees, answerers and the assignee a deputy stood in for', () => {
    const ids = namedIds([
      entry(created(ID.bob), [], { actor: ID.portal, runAs: ID.alice }),
      entry(wf(answered(2, '', ID.dave, ID.carol), opened(ID.erin))),
    ]);
    assert.deepEqual(new Set(ids), new Set([ID.portal, ID.alice, ID.bob, ID.dave, ID.carol, ID.erin]));
  });
});
