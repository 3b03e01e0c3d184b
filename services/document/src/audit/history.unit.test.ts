/**
 * The recognised text (64 Ki characters a file) is kept in the document state for search only: the
 * DocForm a reader gets and the `changes` of a history entry do not carry it (the entry's `data` is the
 * event as recorded). An entry shows the trace id of the event's stored `traceparent`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RECOGNIZED_TEXT_MAX_CHARS } from '@docflow/contracts';
import type { RecordedEvent } from '@docflow/eventstore';
import { toDocForm } from '../documents/representation';
import { foldHistory } from './history';

const FILE_ID = 'f'.repeat(24);
const TEXT = `Quokka ${'lagoon '.repeat(RECOGNIZED_TEXT_MAX_CHARS)}`.slice(0, RECOGNIZED_TEXT_MAX_CHARS);

const recorded = (revision: number, type: string, data: Record<string, unknown>): RecordedEvent => ({
  id: `e${revision}`,
  type,
  version: 1,
  data,
  metadata: { correlationId: 'c', timestamp: `2026-11-24T00:00:0${revision}.000Z` },
  streamId: 'doc-1',
  revision,
  position: String(revision),
  recordedAt: `2026-11-24T00:00:0${revision}.000Z`,
});

const EVENTS = [
  recorded(1, 'DocumentCreated', {
    id: 'a'.repeat(24),
    form: 'invoice',
    formsystype: 0,
    author: 'usr-a',
    valuesByTags: {},
    tags: [],
    files: [{ id: FILE_ID, fileName: 'scan.png', size: 1, sha256: '0'.repeat(64), contentType: 'image/png' }],
    datedue: '',
  }),
  recorded(2, 'RecognitionRecorded', {
    fileId: FILE_ID,
    parts: [
      {
        _id: 'b'.repeat(24),
        pageIdxStart: 0,
        pageIdxEnd: 0,
        recoForm: { form: null, id: 'r', name: 'invoice' },
        confidence: 90,
        valuesByTags: { total: '1234.50' },
      },
    ],
    pageCount: 1,
    text: TEXT,
    sourceId: 'src-1',
  }),
];

describe('recognised text', () => {
  it('stays out of the DocForm and of the history changes', () => {
    const { entries, state } = foldHistory(EVENTS);
    assert.equal(state.recoText.join(''), TEXT, 'kept in the state (the search reads it)');
    assert.ok(!JSON.stringify(toDocForm(state)).includes('Quokka'));
    const recognized = entries[1]!;
    assert.ok(recognized.changes.length > 0, 'the recognition still shows as changes');
    assert.ok(!JSON.stringify(recognized.changes).includes('Quokka'));
    assert.ok(JSON.stringify(recognized.changes).length < 2_000);
  });
});

describe('trace id', () => {
  it('an entry shows the trace id of its stored traceparent; none when absent or malformed', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const [traced, untraced, malformed] = [`00-${traceId}-00f067aa0ba902b7-01`, undefined, 'garbage'].map(
      (traceparent) => {
        const [created] = EVENTS;
        const metadata = { ...created!.metadata, ...(traceparent ? { traceparent } : {}) };
        return foldHistory([{ ...created!, metadata }]).entries[0]!;
      },
    );
    assert.equal(traced!.traceId, traceId);
    assert.equal('traceId' in untraced!, false);
    assert.equal('traceId' in malformed!, false);
  });
});
