import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventEnvelope, RecognitionEvent, StoredFile } from '@docflow/contracts';
import {
  decideFailedRun,
  decideGivenUp,
  decideJobs,
  decideRecognized,
  decideRequeue,
  decideResult,
  type JobRetryPolicy,
  wantsRecognition,
} from './businessLogic';
import type { RecognitionJob } from './job';
import type { RecoPart } from './recognize-file';
import { evolve, initialResults, type RecognitionResults } from './results';

const FORM = {
  name: 'invoice',
  title: 'Invoice',
  formsystype: 1,
  tags: { total: 'string' as const },
  recognition: {
    forms: [{ id: 'inv', name: 'Invoice', match: ['invoice'], fields: { total: 'Total (\\d+)' } }],
  },
};
const RECOGNITION = { form: FORM, idpLangs: 'eng', idpFrpr: true };

const file = (n: number, contentType = 'application/pdf'): StoredFile => ({
  id: `${n}`.padStart(24, 'a'),
  fileName: `f${n}.pdf`,
  size: 10,
  sha256: 'c'.repeat(64),
  contentType,
});

/** A document event as the bus brings it. */
function documentEvent(more: Partial<EventEnvelope> = {}, data: Record<string, unknown> = {}): EventEnvelope {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    type: 'DocumentCreated',
    version: 1,
    streamId: 'docForm-d1',
    revision: 1,
    recordedAt: '2026-11-26T00:00:00.000Z',
    data: {
      id: 'd1',
      form: 'invoice',
      formsystype: 1,
      author: 'alice',
      valuesByTags: {},
      tags: [],
      files: [file(1), file(2, 'image/png')],
      datedue: '',
      recognition: RECOGNITION,
      ...data,
    },
    metadata: { correlationId: 'c1', actor: 'bob', timestamp: '2026-11-26T00:00:00.000Z' },
    ...more,
  };
}

describe('which documents ask for recognition', () => {
  it('a DocumentCreated of a docForm stream that carries recognition', () => {
    assert.equal(wantsRecognition(documentEvent()), true);
  });

  it('not one without recognition (its form recognises nothing, or no file came)', () => {
    assert.equal(wantsRecognition(documentEvent({}, { recognition: undefined })), false);
  });

  it('not another event type, nor another stream', () => {
    assert.equal(wantsRecognition(documentEvent({ type: 'DocumentFieldsUpdated' })), false);
    assert.equal(wantsRecognition(documentEvent({ streamId: 'docResponse-d1' })), false);
  });
});

describe('which files become jobs', () => {
  it('one job per file, in order, whatever its type, with the form and the languages to read it with', () => {
    const jobs = decideJobs({ envelope: documentEvent(), traceparent: '00-aa-bb-01' });
    assert.deepEqual(
      jobs.map((j) => j.file),
      [file(1), file(2, 'image/png')],
    );
    for (const job of jobs) {
      assert.equal(job.docId, 'd1');
      assert.equal(job.author, 'alice');
      assert.deepEqual(job.recognition, RECOGNITION);
      assert.equal(job.traceparent, '00-aa-bb-01');
    }
  });

  it("the results' metadata is the event's, caused by it", () => {
    const [job] = decideJobs({ envelope: documentEvent() });
    assert.deepEqual(job?.metadata, {
      correlationId: 'c1',
      actor: 'bob',
      timestamp: '2026-11-26T00:00:00.000Z',
      causationId: '00000000-0000-4000-8000-000000000001',
    });
  });

  it('none when no file came', () => {
    assert.deepEqual(decideJobs({ envelope: documentEvent({}, { files: [] }) }), []);
  });

  it('refuses a DocumentCreated that does not parse', () => {
    assert.throws(() => decideJobs({ envelope: documentEvent({}, { files: 'none' }) }));
  });
});

describe('which jobs are queued again when the queue was lost', () => {
  const recorded = (...ids: string[]): RecognitionResults => ({
    fileIds: ids,
    textMissing: [],
    recognized: {},
  });

  it('the jobs of the files still pending, as the bus handler queued them', () => {
    const jobs = decideRequeue({ envelope: documentEvent(), pending: [file(2).id] }, initialResults);
    assert.deepEqual(
      jobs.map((j) => j.file),
      [file(2, 'image/png')],
    );
    assert.deepEqual(jobs, decideJobs({ envelope: documentEvent() }).slice(1));
  });

  it('not a file whose result is recorded here and still on its way to the document', () => {
    const pending = [file(1).id, file(2).id];
    const jobs = decideRequeue({ envelope: documentEvent(), pending }, recorded(file(1).id));
    assert.deepEqual(
      jobs.map((j) => j.file.id),
      [file(2).id],
    );
    assert.deepEqual(decideRequeue({ envelope: documentEvent(), pending }, recorded(...pending)), []);
  });
});

describe('what a recognition records', () => {
  const part: RecoPart = {
    recoForm: { form: null, id: 'inv', name: 'Invoice' },
    pageIdxStart: 0,
    pageIdxEnd: 1,
    confidence: 90,
    valuesByTags: { total: '12' },
    fieldsByTags: {
      total: { confidence: 93.1, raw: '12,00', pageIdx: 1, box: [0.7, 0.8, 0.8, 0.82], label: 'Total' },
    },
  };
  let ids = 0;
  const newId = () => `${++ids}`.padStart(24, '0');

  it('a recognised file: FileRecognized with its page count, its text and its parts (values and how each was found), each with a new _id', () => {
    const result = {
      ok: true as const,
      parts: [part, part],
      pageCount: 3,
      ocrPageCount: 1,
      text: 'Invoice',
      layouts: [],
    };
    assert.deepEqual(decideRecognized('f1', result, newId), {
      type: 'FileRecognized',
      data: {
        fileId: 'f1',
        pageCount: 3,
        parts: [
          { _id: '000000000000000000000001', ...part },
          { _id: '000000000000000000000002', ...part },
        ],
        text: 'Invoice',
      },
    });
  });

  it('a file that failed: FileRecognitionFailed with the reason and the detail', () => {
    const result = { ok: false as const, reason: 'too-large' as const, detail: 'over 200 pages' };
    assert.deepEqual(decideRecognized('f1', result, newId), {
      type: 'FileRecognitionFailed',
      data: { fileId: 'f1', reason: 'too-large', detail: 'over 200 pages' },
    });
  });
});

describe('a failed run', () => {
  const policy: JobRetryPolicy = { attempts: 3, initialMs: 1_000, maxMs: 1_500 };
  const NOW = 1_000_000;

  it('the first failure: queued again after the first back-off', () => {
    assert.deepEqual(decideFailedRun({ attempts: 0 }, policy, NOW), {
      type: 'RetryScheduled',
      data: { attempts: 1, retryAt: NOW + 1_000 },
    });
  });

  it('a later failure: queued again after a longer back-off, within its bound', () => {
    assert.deepEqual(decideFailedRun({ attempts: 1 }, policy, NOW), {
      type: 'RetryScheduled',
      data: { attempts: 2, retryAt: NOW + 1_500 },
    });
  });

  it('the last run allowed: given up (kept for the back-off while that cannot be recorded)', () => {
    assert.deepEqual(decideFailedRun({ attempts: 2 }, policy, NOW), {
      type: 'GivenUp',
      data: { attempts: 3, retryAt: NOW + 1_500 },
    });
  });

  it('a job given up records its file as unavailable, naming the attempts', () => {
    const [job] = decideJobs({ envelope: documentEvent() }) as [RecognitionJob];
    assert.deepEqual(decideGivenUp(job, 8), {
      type: 'FileRecognitionFailed',
      data: {
        fileId: file(1).id,
        reason: 'unavailable',
        detail: 'the file could not be read for recognition (8 attempts)',
      },
    });
  });
});

describe("a file's result", () => {
  const recognized = (fileId: string): RecognitionEvent => ({
    type: 'FileRecognized',
    data: { fileId, pageCount: 1, parts: [], text: '' },
  });
  const failed = (fileId: string): RecognitionEvent => ({
    type: 'FileRecognitionFailed',
    data: { fileId, reason: 'unavailable', detail: 'x' },
  });
  const given = (...events: RecognitionEvent[]): RecognitionResults => events.reduce(evolve, initialResults);

  it('is recorded when its file has none', () => {
    assert.deepEqual(decideResult(given(), recognized('f1')), [recognized('f1')]);
    assert.deepEqual(decideResult(given(recognized('f2')), failed('f1')), [failed('f1')]);
  });

  it('is recorded once: nothing when its file has a result, of either kind', () => {
    assert.deepEqual(decideResult(given(recognized('f1')), recognized('f1')), []);
    assert.deepEqual(decideResult(given(failed('f1')), recognized('f1')), []);
  });
});
