/** Document commands, one pure decision each: `(command, state) → events`, or a typed rejection. */
import {
  type DocumentEvent,
  type FormDefinition,
  rejections,
  type StoredFile,
  type TagValue,
  type ValuesByTags,
} from '@docflow/contracts';
import { type AccessPrincipal, canWrite } from './access';
import type { DocState } from './docForm';

export interface CreateDocument {
  id: string;
  form: FormDefinition;
  author: string;
  valuesByTags: ValuesByTags;
  tags: string[];
  files: StoredFile[];
  now: Date;
  /** OCR options of the create request. */
  idp: { idpLangs: string; idpFrpr: boolean };
}

const DAY_MS = 86_400_000;

/** Every value must name a tag of the form and have that tag's kind. */
export function checkValuesAgainstForm(values: ValuesByTags, form: FormDefinition): void {
  const errors: Array<{ pointer: string; message: string }> = [];
  for (const [tag, value] of Object.entries(values)) {
    const kind = form.tags[tag];
    if (!kind)
      errors.push({
        pointer: `docForm.valuesByTags.${tag}`,
        message: `the form ${form.name} has no tag ${tag}`,
      });
    else if (kind !== kindOf(value))
      errors.push({ pointer: `docForm.valuesByTags.${tag}`, message: `tag ${tag} holds a ${kind}` });
  }
  if (errors.length) throw rejections.invalid('values do not fit the form', errors);
}

const kindOf = (value: TagValue) => (typeof value === 'string' ? 'string' : 'table');

/** A participant's corrections: the given tags' values replace theirs, `_tags` replaces the tags. */
export function decideUpdateFields(
  changes: { valuesByTags?: ValuesByTags; tags?: string[] },
  form: FormDefinition,
  state: DocState,
): DocumentEvent[] {
  const valuesByTags = { ...state.valuesByTags, ...changes.valuesByTags };
  checkValuesAgainstForm(changes.valuesByTags ?? {}, form);
  const tags = changes.tags ? [...new Set(changes.tags)] : state.tags;
  if (
    JSON.stringify(valuesByTags) === JSON.stringify(state.valuesByTags) &&
    tags.join('\u0000') === state.tags.join('\u0000')
  )
    return [];
  return [{ type: 'DocumentFieldsUpdated', data: { valuesByTags, tags } }];
}

export function decideCreate(cmd: CreateDocument, state: DocState): DocumentEvent[] {
  if (state.exists) throw rejections.conflict(`document ${cmd.id} exists already`);
  checkValuesAgainstForm(cmd.valuesByTags, cmd.form);
  const dueDays = cmd.form.workflow?.dueDays;
  const datedue = dueDays === undefined ? '' : new Date(cmd.now.getTime() + dueDays * DAY_MS).toISOString();
  return [
    {
      type: 'DocumentCreated',
      data: {
        id: cmd.id,
        form: cmd.form.name,
        formsystype: cmd.form.formsystype,
        author: cmd.author,
        valuesByTags: cmd.valuesByTags,
        tags: [...new Set(cmd.tags)],
        files: cmd.files,
        datedue,
        title: { formTitle: cmd.form.title, ...(cmd.form.titleField ? { field: cmd.form.titleField } : {}) },
        ...(cmd.form.workflow ? { workflow: cmd.form.workflow } : {}),
        // Recognition runs when the form recognises something and there is something to recognise.
        ...(cmd.form.recognition?.forms.length && cmd.files.length
          ? { recognition: { form: cmd.form, ...cmd.idp } }
          : {}),
      },
    },
  ];
}

/**
 * Manual validation of a recognised part by one who may write the document: its values replaced
 * (checked against the form), validated.
 */
export function decideValidateReco(
  cmd: { recoId: string; valuesByTags: ValuesByTags; by: AccessPrincipal; copyToFields?: boolean },
  form: FormDefinition | null,
  state: DocState,
): DocumentEvent[] {
  if (!canWrite(cmd.by, state))
    throw rejections.forbidden('validating recognition data needs write access to the document');
  if (!state.recoData.some((e) => e._id === cmd.recoId))
    throw rejections.notFound(`no recoData ${cmd.recoId}`);
  if (form) checkValuesAgainstForm(cmd.valuesByTags, form);
  const validated: DocumentEvent = {
    type: 'RecoDataValidated',
    data: { recoId: cmd.recoId, valuesByTags: cmd.valuesByTags, by: 'person' },
  };
  // The document's fields change only when the validator asks (docs/decisions.md, issue 33).
  const copied =
    cmd.copyToFields && form ? decideUpdateFields({ valuesByTags: cmd.valuesByTags }, form, state) : [];
  return [validated, ...copied];
}
