import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { type DocumentFacts, mapDocumentEvent } from './event-mapping';
import { documentEnvelope, FIXTURE_AT, FIXTURE_DOC } from './test-fixtures';

const DOC = FIXTURE_DOC;
const AT = FIXTURE_AT;
const BOB = 'usr-3f2b8c1e-9d4a-4c7e-8b1f-2a6d5e7c9b01';
const RESP = '65a1f0c2b3d4e5f6012345aa';

const envelope = documentEnvelope;

const created = envelope(
  'DocumentCreated',
  {
    id: DOC,
    form: 'memo',
    formsystype: 1,
    author: BOB,
    valuesByTags: { subject: 'secret plan' },
    tags: [],
    files: [],
    datedue: '',
  },
  1,
);

const REGISTERED: DocumentFacts = {
  form: 'memo',
  phase: 'registration',
  status: 'draft',
  step: 0,
  iteration: 0,
};

const workflow = (events: Array<{ type: string; data: Record<string, unknown> }>, revision: number) =>
  envelope('WorkflowChanged', { sourceIds: [randomUUID()], events }, revision);

describe('document event → webhook events', () => {
  it('a created document: ids, form and position, never its values', () => {
    const mapped = mapDocumentEvent(created, undefined)!;
    assert.equal(mapped.events.length, 1);
    const [event] = mapped.events;
    assert.equal(event!.type, 'document.created');
    assert.equal(event!.sourceId, `${created.id}/0`);
    assert.deepEqual(event!.payload, {
      type: 'document.created',
      timestamp: AT,
      data: {
        documentId: DOC,
        idWeb: Buffer.from(DOC, 'hex').toString('base64url'),
        form: 'memo',
        revision: 1,
        state: 0,
        status: 1,
        step: 0,
        iteration: 0,
      },
    });
    assert.doesNotMatch(JSON.stringify(mapped.events), /secret plan|usr-/);
    assert.equal(mapped.facts.form, 'memo');
  });

  it('a workflow batch: the state change comes before the task it opens, the answer before the change', () => {
    const facts = REGISTERED;
    const started = mapDocumentEvent(
      workflow(
        [
          { type: 'PhaseStarted', data: { phase: 'approval', iteration: 1, stages: [[BOB]], at: AT } },
          { type: 'StageStarted', data: { step: 1, at: AT } },
          {
            type: 'TaskOpened',
            data: { respId: RESP, phase: 'approval', step: 1, iteration: 1, assignee: BOB, at: AT },
          },
        ],
        2,
      ),
      facts,
    )!;
    assert.deepEqual(
      started.events.map((e) => [e.type, e.payload.data.state, e.payload.data.status, e.payload.data.step]),
      [
        ['document.state_changed', 1, 2, 1],
        ['task.opened', 1, undefined, 1],
      ],
    );
    assert.equal(started.events[1]!.payload.data.taskId, RESP);
    assert.doesNotMatch(JSON.stringify(started.events), /usr-/);

    const answered = mapDocumentEvent(
      workflow(
        [
          {
            type: 'TaskAnswered',
            data: { respId: RESP, taskstatus: 2, content: 'looks fine', answeredBy: BOB, at: AT },
          },
          { type: 'PhaseCompleted', data: { phase: 'approval', iteration: 1, at: AT } },
          { type: 'MovedToArchive', data: { iteration: 1, at: AT } },
        ],
        3,
      ),
      started.facts,
    )!;
    assert.deepEqual(
      answered.events.map((e) => [e.type, e.payload.data.state, e.payload.data.status]),
      [
        ['task.answered', undefined, undefined],
        ['document.state_changed', 4, 4],
      ],
    );
    assert.equal(answered.events[0]!.payload.data.taskstatus, 2);
    assert.doesNotMatch(JSON.stringify(answered.events), /looks fine/);
    assert.deepEqual(
      answered.events.map((e) => e.sourceId.split('/')[1]),
      ['0', '1'],
    );
  });

  it('recognition results and failures are recognition.done; other events and streams make nothing', () => {
    const facts = REGISTERED;
    const done = mapDocumentEvent(
      envelope('RecognitionFailed', { fileId: RESP, reason: 'x', detail: 'y' }, 4),
      facts,
    )!;
    assert.deepEqual(done.events[0]!.payload.data, {
      documentId: DOC,
      idWeb: Buffer.from(DOC, 'hex').toString('base64url'),
      form: 'memo',
      revision: 4,
      fileId: RESP,
      recognized: false,
    });
    assert.equal(mapDocumentEvent(envelope('DocumentFieldsUpdated', {}, 5), facts)!.events.length, 0);
    assert.equal(mapDocumentEvent(envelope('FormDefined', {}, 1, 'form-memo'), facts), undefined);
  });
});
