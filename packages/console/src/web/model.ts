/** The API's shapes as the console reads them, and the names of the contract's numeric codes. */

import type { components } from '@docflow/client/openapi';
import {
  MANAGEMENT_TASK_STATUS,
  RESPONSE_TASK_STATUS,
  STATE_CODES,
  STATUS_CODES,
} from '@docflow/contracts/codes';

type Schemas = components['schemas'];

export type TagValue = Schemas['TagValue'];
/** A document as `GET …?embed=docResponse,recoData,actions` answers it. */
export type Doc = Schemas['DocFormEmbedded'];
export type Task = NonNullable<Doc['docResponse']>;
/** A document of a view's page as `?embed=names` lists it. */
export type ListedDoc = Schemas['ListedDocForm'];
/** `embed=names`: each named account's display name by its `usr-` id. */
export type PeopleNames = Schemas['PeopleNames'];
export type RecoData = Schemas['RecoData'];
/** The words recognition read on a page, with boxes as fractions of the page. */
export type PageLayout = Schemas['PageLayout'];
/** [left, top, right, bottom], fractions of the page. */
export type Box = Schemas['Box'];
export type DocumentActions = Schemas['DocumentActions'];
/** `GET /api/v2/me`: who is signed in and what they may do. */
export type Me = Schemas['Me'];
export type HistoryEntry = Schemas['HistoryEntry'];
/** A form as `GET /api/v2/forms` lists it: its name, title and fields. */
export type FormSummary = Schemas['FormSummary'];
/** A form as the admin API reads and saves it. */
export type StoredForm = Schemas['StoredForm'];
/** An account; `apiKey` only in the answer that created a service account. */
export type Account = Schemas['CreatedAccount'];

export const ROLES = ['svcAdminSysRW', 'svcAdminDocsRW', 'svcAdminDocRW', 'svcAdminDocRWD', 'svcAuditR'];

const invert = (codes: Record<string, number>) =>
  Object.fromEntries(Object.entries(codes).map(([name, code]) => [code, name]));
const PHASE_NAMES = invert(STATE_CODES);
const STATUS_NAMES = invert(STATUS_CODES);

/** `inProgress` → `in progress`. */
const words = (name: string) => name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);

export const phaseName = (state: number) => PHASE_NAMES[state] ?? `phase ${state}`;
export const statusName = (status: number) => words(STATUS_NAMES[status] ?? `status ${status}`);

export const PHASES = Object.entries(STATE_CODES);
export const STATUSES = Object.entries(STATUS_CODES).map(([name, code]) => [words(name), code] as const);

export const ANSWER = RESPONSE_TASK_STATUS;

/**
 * The answers a task of `phase` takes, as the console names them; `allowed` (from `embed=actions`)
 * keeps those the server takes from the caller now.
 */
export function answersFor(
  phase: number,
  allowed?: readonly number[],
): { label: string; taskstatus: number; edits: boolean }[] {
  const offered = answersOfPhase(phase);
  return allowed ? offered.filter((a) => allowed.includes(a.taskstatus)) : offered;
}

function answersOfPhase(phase: number): { label: string; taskstatus: number; edits: boolean }[] {
  if (phase === STATE_CODES.approval)
    return [
      { label: 'Approve', taskstatus: ANSWER.approve, edits: false },
      { label: 'Approve with edits', taskstatus: ANSWER.approveWithEdits, edits: true },
      { label: 'Decline', taskstatus: ANSWER.decline, edits: false },
    ];
  if (phase === STATE_CODES.sign)
    return [
      { label: 'Sign', taskstatus: ANSWER.sign, edits: false },
      { label: 'Sign with edits', taskstatus: ANSWER.sign, edits: true },
      { label: 'Decline', taskstatus: ANSWER.decline, edits: false },
    ];
  if (phase === STATE_CODES.execution)
    return [{ label: 'Mark execution done', taskstatus: ANSWER.executionDone, edits: false }];
  return [];
}

const M = MANAGEMENT_TASK_STATUS;

/** The console's names of the management moves, in the order it shows them. */
const MANAGEMENT_LABELS: [number, string][] = [
  [M.startApproval, 'Start approval'],
  [M.suspend, 'Suspend'],
  [M.resume, 'Resume'],
  [M.cancel, 'Cancel workflow'],
  [M.restart, 'Restart the phase'],
  [M.startSign, 'Send to sign'],
  [M.startExecution, 'Send to execution'],
  [M.moveToArchive, 'Archive'],
  [M.moveToRepository, 'Move to repository'],
  [M.block, 'Block'],
  [M.delete, 'Delete'],
];

/**
 * The management moves to offer: those the server says (`embed=actions`, `manage`) the caller may make
 * now, decided by the code that enforces them; the console keeps no copy of the rules.
 */
export function managementActions(allowed: readonly number[]): { label: string; taskstatus: number }[] {
  return MANAGEMENT_LABELS.filter(([code]) => allowed.includes(code)).map(([taskstatus, label]) => ({
    label,
    taskstatus,
  }));
}

export const isOverdue = (datedue: string, now = Date.now()) => Boolean(datedue) && Date.parse(datedue) < now;

/** Overdue first, then by due date (none last), then newest first. */
export function byUrgency(a: Doc, b: Doc): number {
  const due = (d: Doc) => (d.datedue ? Date.parse(d.datedue) : Number.POSITIVE_INFINITY);
  return due(a) - due(b) || Date.parse(b.datecreated) - Date.parse(a.datecreated);
}

const LOCAL_TIME = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});
const ZONE = new Intl.DateTimeFormat(undefined, { timeZoneName: 'short' });

/** In the browser's time zone, the zone named: `26 Nov 2026, 19:05 (GMT+1)`. */
export const formatTime = (iso: string) => {
  if (!iso) return '—';
  const date = new Date(iso);
  const zone = ZONE.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value;
  return `${LOCAL_TIME.format(date)}${zone ? ` (${zone})` : ''}`;
};
