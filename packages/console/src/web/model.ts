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
/** A document as `GET …?embed=docResponse,recoData` answers it. */
export type Doc = Schemas['DocFormEmbedded'];
export type Task = NonNullable<Doc['docResponse']>;
export type RecoData = Schemas['RecoData'];
export type HistoryEntry = Schemas['HistoryEntry'];
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

/** The answers a task of `phase` takes (the others are refused for that phase). */
export function answersFor(phase: number): { label: string; taskstatus: number; edits: boolean }[] {
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
const S = STATUS_CODES;
const P = STATE_CODES;

/**
 * The management moves the workflow service accepts from the document's state (its `businessLogic`):
 * phases start only when none runs and the document is not filed; a blocked one can only be deleted.
 * Whether the caller may make them (author or role) the server decides; a refusal is shown as it comes.
 */
export function managementActions(
  doc: Pick<Doc, 'state' | 'status'>,
): { label: string; taskstatus: number }[] {
  if (doc.status === S.deleted) return [];
  if (doc.status === S.blocked) return [{ label: 'Delete', taskstatus: M.delete }];
  const running = doc.status === S.inProgress || doc.status === S.suspended;
  const unfiled = doc.state <= P.execution;
  const actions = [
    { label: 'Start approval', taskstatus: M.startApproval, when: unfiled && !running },
    { label: 'Suspend', taskstatus: M.suspend, when: doc.status === S.inProgress },
    { label: 'Resume', taskstatus: M.resume, when: doc.status === S.suspended },
    { label: 'Cancel workflow', taskstatus: M.cancel, when: running },
    { label: 'Restart the phase', taskstatus: M.restart, when: unfiled },
    { label: 'Send to sign', taskstatus: M.startSign, when: unfiled && !running },
    { label: 'Send to execution', taskstatus: M.startExecution, when: unfiled && !running },
    { label: 'Archive', taskstatus: M.moveToArchive, when: unfiled && !running },
    {
      label: 'Move to repository',
      taskstatus: M.moveToRepository,
      when: doc.state !== P.repository && !running,
    },
    { label: 'Block', taskstatus: M.block, when: true },
    { label: 'Delete', taskstatus: M.delete, when: true },
  ];
  return actions.filter((a) => a.when).map(({ label, taskstatus }) => ({ label, taskstatus }));
}

export const isOverdue = (datedue: string, now = Date.now()) => Boolean(datedue) && Date.parse(datedue) < now;

/** Overdue first, then by due date (none last), then newest first. */
export function byUrgency(a: Doc, b: Doc): number {
  const due = (d: Doc) => (d.datedue ? Date.parse(d.datedue) : Number.POSITIVE_INFINITY);
  return due(a) - due(b) || Date.parse(b.datecreated) - Date.parse(a.datecreated);
}

export const formatTime = (iso: string) =>
  iso
    ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) +
      ' UTC'
    : '—';
