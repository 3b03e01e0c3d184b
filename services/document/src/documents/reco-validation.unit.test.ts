/**
 * Validation only where needed (issue 34), as a table of cases: given a document whose form sets
 * `recognition.validation`, when recognition records a part, then the part is validated by recognition
 * (every value at or above `autoValidateAt`) or a validation task opens for the validators — who then
 * find the document in their inbox, may read and validate it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DocumentEvent, RecognizedField, RecognizedPart } from '@docflow/contracts';
import { summariseHistory, toRecoData, validationAssignees } from '@docflow/document-model';
import { decideRecognitionResult } from '../consumers/recognition-consumer';
import { canRead, canWrite } from './access';
import { decideValidateReco } from './businessLogic';
import { checkValidationHold } from './reco-validation';
import {
  ALICE,
  AUTHOR,
  BOB,
  created,
  DOC_ID,
  doc,
  FILE,
  FORM,
  OUTSIDER,
  principal,
  RECO_ID,
} from './test-fixtures';

const field = (confidence: number): RecognizedField => ({
  confidence,
  pageIdx: 0,
  box: [0.5, 0.1, 0.7, 0.12],
});

const part = (
  fields?: Record<string, number>,
  values: Record<string, string> = { invoiceNo: 'INV-1', total: '12.00' },
): RecognizedPart => ({
  _id: RECO_ID,
  pageIdxStart: 0,
  pageIdxEnd: 0,
  recoForm: { form: null, id: 'inv', name: 'Invoice' },
  confidence: 80,
  valuesByTags: values,
  ...(fields
    ? { fieldsByTags: Object.fromEntries(Object.entries(fields).map(([tag, c]) => [tag, field(c)])) }
    : {}),
});

/** A document created from FORM with `validation` in its recognition section. */
function createdWith(validation?: { autoValidateAt?: number; validators: string[] }): DocumentEvent {
  const event = created();
  if (event.type !== 'DocumentCreated') throw new Error('unreachable');
  const recognition = { forms: FORM.recognition!.forms, ...(validation ? { validation } : {}) };
  return {
    ...event,
    data: { ...event.data, recognition: { form: { ...FORM, recognition }, idpLangs: 'eng', idpFrpr: false } },
  };
}

const fileRecognized = (p: RecognizedPart) => ({
  type: 'FileRecognized' as const,
  data: { fileId: FILE.id, pageCount: 1, parts: [p] },
});

/** The events recording `p` in a document created by `createdEvent`, and the document after them. */
function record(createdEvent: DocumentEvent, p: RecognizedPart) {
  const before = doc(createdEvent);
  const events = decideRecognitionResult(before, fileRecognized(p), 'reco-1');
  return { events, after: doc(createdEvent, ...events) };
}

const types = (events: DocumentEvent[]) => events.map((e) => e.type);
const VALIDATION = { autoValidateAt: 90, validators: [BOB] };

describe('validation only where needed', () => {
  const cases: Array<{
    name: string;
    validation?: { autoValidateAt?: number; validators: string[] };
    part: RecognizedPart;
    recorded: string[];
  }> = [
    {
      name: 'every value at or above the threshold: validated by recognition',
      validation: VALIDATION,
      part: part({ invoiceNo: 95, total: 90 }),
      recorded: ['RecognitionRecorded', 'RecoDataValidated'],
    },
    {
      name: 'one value below: a validation task',
      validation: VALIDATION,
      part: part({ invoiceNo: 95, total: 89.9 }),
      recorded: ['RecognitionRecorded', 'RecoValidationRequested'],
    },
    {
      name: 'a value without its field confidence: a validation task',
      validation: VALIDATION,
      part: part({ invoiceNo: 99 }),
      recorded: ['RecognitionRecorded', 'RecoValidationRequested'],
    },
    {
      name: 'a part without fieldsByTags (recognised before them, or by patterns only): never automatic',
      validation: { autoValidateAt: 0, validators: [BOB] },
      part: part(),
      recorded: ['RecognitionRecorded', 'RecoValidationRequested'],
    },
    {
      name: 'a part with no value at all: a validation task',
      validation: VALIDATION,
      part: part({}, {}),
      recorded: ['RecognitionRecorded', 'RecoValidationRequested'],
    },
    {
      name: 'no threshold: every part waits for a person',
      validation: { validators: [BOB] },
      part: part({ invoiceNo: 100, total: 100 }),
      recorded: ['RecognitionRecorded', 'RecoValidationRequested'],
    },
    {
      name: 'a form that says nothing of validation: recorded as before issue 34',
      part: part({ invoiceNo: 100, total: 100 }),
      recorded: ['RecognitionRecorded'],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      assert.deepEqual(types(record(createdWith(c.validation), c.part).events), c.recorded);
    });

  it('recorded as validated by recognition, with the threshold, in the history\u2019s words', () => {
    const { events, after } = record(createdWith(VALIDATION), part({ invoiceNo: 95, total: 90 }));
    assert.deepEqual(events[1], {
      type: 'RecoDataValidated',
      data: {
        recoId: RECO_ID,
        valuesByTags: { invoiceNo: 'INV-1', total: '12.00' },
        by: 'recognition',
        threshold: 90,
      },
    });
    const [entry] = toRecoData(after);
    assert.equal(entry?.validated, true);
    assert.equal(entry?.validatedBy, 'recognition');
    assert.deepEqual(validationAssignees(after), [], 'no task opens');
    const [, , summary] = summariseHistory(
      [createdWith(VALIDATION), ...events].map((e) => ({
        type: e.type,
        data: e.data,
        actor: AUTHOR,
        changes: [],
      })),
      () => 'Someone',
    );
    assert.equal(
      summary,
      'Recognised values (invoiceNo, total) validated automatically (all values \u2265 90)',
    );
  });

  it('a validation task: in the validator\u2019s inbox, who may read and validate; validated by a person it closes', () => {
    const { events, after } = record(createdWith(VALIDATION), part({ invoiceNo: 95, total: 40 }));
    assert.deepEqual(events[1], {
      type: 'RecoValidationRequested',
      data: { recoIds: [RECO_ID], validators: [BOB] },
    });
    assert.deepEqual(validationAssignees(after), [BOB]);
    assert.equal(toRecoData(after)[0]?.validated, false);
    assert.ok(canRead(principal(BOB), after) && canWrite(principal(BOB), after));
    assert.ok(!canRead(principal(OUTSIDER), after));
    const validated = decideValidateReco(
      { recoId: RECO_ID, valuesByTags: { invoiceNo: 'INV-1', total: '412.00' }, by: principal(BOB) },
      FORM_WITH_TAGS,
      after,
    );
    assert.deepEqual(validated, [
      {
        type: 'RecoDataValidated',
        data: { recoId: RECO_ID, valuesByTags: { invoiceNo: 'INV-1', total: '412.00' }, by: 'person' },
      },
    ]);
    const done = doc(createdWith(VALIDATION), ...events, ...validated);
    assert.deepEqual(validationAssignees(done), [], 'the task is closed');
    assert.equal(toRecoData(done)[0]?.validatedBy, 'person');
    assert.ok(canRead(principal(BOB), done), 'who validated still reads the document');
    assert.ok(!canWrite(principal(BOB), done), 'and no longer writes it');
  });

  it('a form naming no validator: the task is the author\u2019s', () => {
    const { after } = record(
      createdWith({ autoValidateAt: 90, validators: [] }),
      part({ invoiceNo: 10, total: 10 }),
    );
    assert.deepEqual(validationAssignees(after), [AUTHOR]);
    assert.ok(!validationAssignees(after).includes(ALICE));
  });

  it('a second delivery of the same result records nothing', () => {
    const { after } = record(createdWith(VALIDATION), part({ invoiceNo: 95, total: 90 }));
    assert.deepEqual(
      decideRecognitionResult(after, fileRecognized(part({ invoiceNo: 95, total: 90 })), 'reco-2'),
      [],
    );
    assert.equal(after.id, DOC_ID);
  });
});

const FORM_WITH_TAGS = {
  ...FORM,
  tags: { ...FORM.tags, invoiceNo: 'string' as const, total: 'string' as const },
};

describe('the workflow waits for validation where the form says so', () => {
  const HOLD = { autoValidateAt: 90, validators: [BOB], waitBefore: 'approval' as const };
  const refused = (state: ReturnType<typeof doc>, taskstatus: number) => {
    try {
      checkValidationHold(state, taskstatus);
      return false;
    } catch {
      return true;
    }
  };

  it('approval does not start while recognition runs or a part waits; it may once validated', () => {
    assert.ok(refused(doc(createdWith(HOLD)), 100), 'recognition still running');
    const { events, after } = record(createdWith(HOLD), part({ invoiceNo: 95, total: 40 }));
    assert.ok(refused(after, 100), 'a part waits for validation');
    assert.ok(!refused(after, 105), 'another phase does not wait');
    const validated = decideValidateReco(
      { recoId: RECO_ID, valuesByTags: { invoiceNo: 'INV-1', total: '40.00' }, by: principal(BOB) },
      FORM_WITH_TAGS,
      after,
    );
    assert.ok(!refused(doc(createdWith(HOLD), ...events, ...validated), 100));
    assert.ok(
      !refused(record(createdWith(HOLD), part({ invoiceNo: 95, total: 90 })).after, 100),
      'validated by recognition',
    );
  });

  it('a form that does not say so never holds the workflow', () => {
    assert.ok(!refused(doc(createdWith(VALIDATION)), 100));
    assert.ok(!refused(doc(created()), 100));
  });
});
