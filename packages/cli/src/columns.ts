/** The columns and named fields of the tables (`--output table`) of documents, accounts and forms. */

import type { components } from '@docflow/client';
import { STATE_CODES, STATUS_CODES } from '@docflow/contracts/codes';
import type { Column } from './output';

type Doc = components['schemas']['ListedDocForm'];
type Account = components['schemas']['Account'];
type FormSummary = components['schemas']['FormSummary'];

/** `inProgress` → `in progress`. */
const words = (name: string) => name.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
const namesOf = (codes: Record<string, number>) =>
  Object.fromEntries(Object.entries(codes).map(([name, code]) => [code, words(name)]));
const STATE_NAMES = namesOf(STATE_CODES);
const STATUS_NAMES = namesOf(STATUS_CODES);

const named = (names: Record<number, string>) => (code: unknown) =>
  typeof code === 'number' && names[code] ? `${code} ${names[code]}` : code;
export const stateName = named(STATE_NAMES);
export const statusName = named(STATUS_NAMES);

/** What a document is called in a list: its subject, else its form. */
const titleOf = (d: Doc) => {
  const subject = (d.valuesByTags as Record<string, unknown> | undefined)?.subject;
  return typeof subject === 'string' && subject ? subject : '';
};

export const DOCUMENT_COLUMNS: Column<Doc>[] = [
  ['id', (d) => d._id],
  ['form', (d) => d.form],
  ['subject', titleOf],
  ['state', (d) => stateName(d.state)],
  ['status', (d) => statusName(d.status)],
  // By name when the list embeds names (an erased person as `[erased]`), else by id.
  ['author', (d) => d.names?.[d.author] ?? d.author],
  ['created', (d) => d.datecreated],
];
export const DOCUMENT_FIELDS = { state: stateName, status: statusName };

export const ACCOUNT_COLUMNS: Column<Account>[] = [
  ['id', (a) => a._id_sys],
  ['kind', (a) => a.kind],
  ['e-mail', (a) => a.email],
  ['name', (a) => `${a.name_first} ${a.name_last}`],
  ['roles', (a) => a.roles.join(',')],
  ['active', (a) => (a.active ? 'yes' : 'no')],
];

export const FORM_COLUMNS: Column<FormSummary>[] = [
  ['name', (f) => f.name],
  ['title', (f) => f.title],
  ['type', (f) => f.formsystype],
  [
    'fields',
    (f) =>
      Object.entries(f.tags)
        .map(([tag, kind]) => (kind === 'table' ? `${tag} (table)` : tag))
        .join(', '),
  ],
];
