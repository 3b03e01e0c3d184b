/** The history's summaries with names asked of identity: the page in context, and ids when identity is down. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServiceClient, ServiceRequest } from '@docflow/kit/http';
import { summarisedPage } from './summaries';

const ALICE = 'usr-00000000-0000-4000-8000-00000000000a';
const BOB = 'usr-00000000-0000-4000-8000-00000000000b';
const ctx = {
  principal: { account: ALICE, subject: ALICE, roles: [] },
  ids: { requestId: 'r', correlationId: 'c' },
};

/** An identity that answers `respond` to each resolve, and the refs it was asked. */
function identity(respond: (refs: string[]) => Response) {
  const asked: string[][] = [];
  const client: ServiceClient = {
    async send(request: ServiceRequest) {
      const { refs } = JSON.parse(String(request.body)) as { refs: string[] };
      asked.push(refs);
      return respond(refs);
    },
  };
  return { calls: { identity: client, internalToken: 't' }, asked };
}

const named = (names: Record<string, string>) => (refs: string[]) =>
  Response.json({
    accounts: Object.fromEntries(
      refs.map((id) => [id, { id, kind: 'person', active: true, deputy: null, name: names[id] }]),
    ),
  });

const entry = (
  rev: number,
  type: string,
  data: Record<string, unknown>,
  actor: string,
  correlationId: string,
) => ({
  rev,
  type,
  time: '2026-11-26T10:00:00.000Z',
  actor,
  correlationId,
  data,
  hash: null,
  prevHash: null,
  changes: [],
});
const ENTRIES = [
  entry(
    1,
    'WorkflowChanged',
    {
      sourceIds: ['s'],
      events: [
        {
          type: 'TaskAnswered',
          data: {
            respId: 'a'.repeat(24),
            taskstatus: 8,
            content: '',
            answeredBy: BOB,
            at: '2026-11-26T10:00:00.000Z',
          },
        },
      ],
    },
    BOB,
    'c1',
  ),
  entry(2, 'DocumentFieldsUpdated', { valuesByTags: { total: '2' }, tags: [] }, BOB, 'c1'),
];

describe('summarisedPage', () => {
  it('summarises the page in the context of the entries before it, asking names only for the page', async () => {
    const { calls, asked } = identity(named({ [BOB]: 'Bob Example' }));
    const page = await summarisedPage(calls, ctx, { warn() {} }, ENTRIES, { first: 1, end: undefined });
    assert.deepEqual(
      page.map((e) => [e.rev, e.summary]),
      [[2, 'Bob Example signed with edits']],
    );
    assert.deepEqual(asked, [[BOB]]);
  });

  it('names people by their ids, and warns, when identity does not answer', async () => {
    const { calls } = identity(() => Response.json({ title: 'down' }, { status: 503 }));
    const warnings: unknown[] = [];
    const page = await summarisedPage(
      calls,
      ctx,
      { warn: (...args: unknown[]) => warnings.push(args) },
      ENTRIES,
      {
        first: 0,
        end: 1,
      },
    );
    assert.deepEqual(
      page.map((e) => e.summary),
      [`${BOB} signed`],
    );
    assert.equal(warnings.length, 1);
  });
});
