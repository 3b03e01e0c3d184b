/** Document commands: given a document, when a command, then its events or the kind of its rejection. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Rejection, type RejectionKind, type ValuesByTags } from '@docflow/contracts';
import type { Principal } from '@docflow/kit/http';
import {
  type CreateDocument,
  checkValuesAgainstForm,
  decideCreate,
  decideUpdateFields,
  decideValidateReco,
} from './businessLogic';
import { initialDoc } from './docForm';
import {
  ALICE,
  APPROVAL_STAGE_1,
  AUTHOR,
  BOB,
  created,
  DOC_ID,
  doc,
  FILE,
  FORM,
  OUTSIDER,
  outcome,
  principal,
  RECO_ID,
  recognized,
  rejects,
  workflowChanged,
} from './test-fixtures';

const NOW = new Date('2026-03-01T09:00:00.000Z');
const create = (change: Partial<CreateDocument> = {}): CreateDocument => ({
  id: DOC_ID,
  form: FORM,
  author: AUTHOR,
  valuesByTags: { subject: 'Budget' },
  tags: ['finance', 'finance', '2026'],
  files: [FILE],
  now: NOW,
  idp: { idpLangs: 'eng', idpFrpr: false },
  ...change,
});

describe('checkValuesAgainstForm', () => {
  const cases: Array<[name: string, values: Record<string, unknown>, pointers: string[]]> = [
    ['values of the form’s tags and kinds', { subject: 'x', lines: [{ a: '1' }] }, []],
    ['no values', {}, []],
    ['a tag the form does not have', { colour: 'red' }, ['docForm.valuesByTags.colour']],
    [
      'a table in a string tag and a string in a table tag',
      { subject: [], lines: 'x' },
      ['docForm.valuesByTags.subject', 'docForm.valuesByTags.lines'],
    ],
  ];
  for (const [name, values, pointers] of cases)
    it(`${name}: ${pointers.length ? '400' : 'accepted'}`, () => {
      try {
        checkValuesAgainstForm(values as never, FORM);
        assert.deepEqual([], pointers);
      } catch (err) {
        assert.ok(err instanceof Rejection && err.kind === 'invalid', String(err));
        assert.deepEqual(
          err.errors?.map((e) => e.pointer),
          pointers,
        );
      }
    });
});

describe('decideCreate', () => {
  it('a new document: its values, tags once each, files, due date from the form, recognition requested', () => {
    assert.deepEqual(decideCreate(create(), initialDoc), [
      {
        type: 'DocumentCreated',
        data: {
          id: DOC_ID,
          form: 'memo',
          formsystype: 1,
          author: AUTHOR,
          valuesByTags: { subject: 'Budget' },
          tags: ['finance', '2026'],
          files: [FILE],
          datedue: '2026-03-06T09:00:00.000Z',
          title: { formTitle: 'Memo' },
          workflow: FORM.workflow,
          recognition: { form: FORM, idpLangs: 'eng', idpFrpr: false },
        },
      },
    ]);
  });
  const cases: Array<
    [name: string, command: CreateDocument, expect: (data: Record<string, unknown>) => void]
  > = [
    ['no files: nothing to recognise', create({ files: [] }), (d) => assert.equal(d.recognition, undefined)],
    [
      'a form that recognises nothing: no recognition',
      create({ form: { ...FORM, recognition: undefined } }),
      (d) => assert.equal(d.recognition, undefined),
    ],
    [
      'a form without a due-date policy: no due date',
      create({ form: { ...FORM, workflow: { approval: FORM.workflow!.approval } } }),
      (d) => assert.equal(d.datedue, ''),
    ],
    [
      'a form without a workflow: none recorded',
      create({ form: { ...FORM, workflow: undefined } }),
      (d) => assert.equal('workflow' in d, false),
    ],
  ];
  for (const [name, command, expect] of cases)
    it(name, () => {
      const [event] = decideCreate(command, initialDoc);
      expect(event!.data as Record<string, unknown>);
    });
  const refused: Array<[name: string, command: CreateDocument, kind: RejectionKind]> = [
    ['a value of a tag the form does not have', create({ valuesByTags: { colour: 'red' } }), 'invalid'],
    ['a value of the wrong kind', create({ valuesByTags: { lines: 'x' } }), 'invalid'],
  ];
  for (const [name, command, kind] of refused)
    it(`${name}: ${kind}`, () =>
      assert.equal(
        outcome(() => decideCreate(command, initialDoc)),
        kind,
      ));
  it('a document that exists already: 409', () =>
    rejects('conflict', () => decideCreate(create(), doc(created()))));
});

describe('decideUpdateFields', () => {
  const state = doc(created());
  const cases: Array<[name: string, changes: Parameters<typeof decideUpdateFields>[0], expect: unknown]> = [
    [
      'a changed value keeps the others',
      { valuesByTags: { lines: [] } },
      [
        {
          type: 'DocumentFieldsUpdated',
          data: { valuesByTags: { subject: 'Budget', lines: [] }, tags: ['finance'] },
        },
      ],
    ],
    [
      '_tags replace the tags, once each',
      { tags: ['a', 'b', 'a'] },
      [{ type: 'DocumentFieldsUpdated', data: { valuesByTags: { subject: 'Budget' }, tags: ['a', 'b'] } }],
    ],
    ['the same values and tags: nothing', { valuesByTags: { subject: 'Budget' }, tags: ['finance'] }, []],
    ['no changes: nothing', {}, []],
    ['a tag the form does not have: 400', { valuesByTags: { colour: 'red' } }, 'invalid'],
  ];
  for (const [name, changes, expect] of cases)
    it(name, () =>
      assert.deepEqual(
        outcome(() => decideUpdateFields(changes, FORM, state)),
        expect,
      ),
    );
});

describe('decideValidateReco', () => {
  const state = doc(created(), recognized, workflowChanged(APPROVAL_STAGE_1));
  const validated = [
    {
      type: 'RecoDataValidated',
      data: { recoId: RECO_ID, valuesByTags: { subject: 'Invoice 2' }, by: 'person' },
    },
  ];
  const cases: Array<{ name: string; by: Principal; recoId: string; values: ValuesByTags; expect: unknown }> =
    [
      {
        name: 'by the author',
        by: principal(AUTHOR),
        recoId: RECO_ID,
        values: { subject: 'Invoice 2' },
        expect: validated,
      },
      {
        name: 'by a user with an open task',
        by: principal(BOB),
        recoId: RECO_ID,
        values: { subject: 'Invoice 2' },
        expect: validated,
      },
      {
        name: 'by a holder of svcAdminDocsRW',
        by: principal(OUTSIDER, 'svcAdminDocsRW'),
        recoId: RECO_ID,
        values: { subject: 'Invoice 2' },
        expect: validated,
      },
      {
        name: 'by one who may only read: 403',
        by: principal(OUTSIDER),
        recoId: RECO_ID,
        values: {},
        expect: 'forbidden',
      },
      {
        name: 'an unknown part: 404',
        by: principal(ALICE),
        recoId: 'ec0000000000000000000009',
        values: {},
        expect: 'notFound',
      },
      {
        name: 'a value the form does not have: 400',
        by: principal(AUTHOR),
        recoId: RECO_ID,
        values: { colour: 'red' },
        expect: 'invalid',
      },
    ];
  for (const c of cases)
    it(c.name, () =>
      assert.deepEqual(
        outcome(() =>
          decideValidateReco({ recoId: c.recoId, valuesByTags: c.values, by: c.by }, FORM, state),
        ),
        c.expect,
      ),
    );
  it('a document whose form is gone: the values are taken as they are', () =>
    assert.equal(
      decideValidateReco(
        { recoId: RECO_ID, valuesByTags: { colour: 'red' }, by: principal(AUTHOR) },
        null,
        state,
      ).length,
      1,
    ));
});
