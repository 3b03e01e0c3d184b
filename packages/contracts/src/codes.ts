/** The contract's numeric codes (DESIGN.md, "Numeric codes"), mapped in this one table. */

export const STATE_CODES = {
  registration: 0,
  approval: 1,
  sign: 2,
  execution: 3,
  archive: 4,
  repository: 5,
} as const;
export type DocPhase = keyof typeof STATE_CODES;

export const STATUS_CODES = {
  draft: 1,
  inProgress: 2,
  suspended: 3,
  completed: 4,
  declined: 5,
  cancelled: 6,
  blocked: 7,
  deleted: 8,
} as const;
export type DocStatus = keyof typeof STATUS_CODES;

/** Task statuses of PUT `docResponse/{respId}`: a participant's answer (0 while the task is open). */
export const RESPONSE_TASK_STATUS = {
  approve: 2,
  approveWithEdits: 3,
  decline: 4,
  executionDone: 5,
  sign: 8,
} as const;

/** Task statuses of POST `docResponse`: a move of the document's workflow. */
export const MANAGEMENT_TASK_STATUS = {
  startApproval: 100,
  suspend: 101,
  resume: 102,
  cancel: 103,
  restart: 104,
  startSign: 105,
  startExecution: 106,
  moveToArchive: 107,
  moveToRepository: 108,
  block: 110,
  delete: 111,
} as const;
export type ManagementTaskStatus = (typeof MANAGEMENT_TASK_STATUS)[keyof typeof MANAGEMENT_TASK_STATUS];

const M = MANAGEMENT_TASK_STATUS;
/** The moves a document's create request may ask for (a phase start, or filing it at once). */
export const CREATE_TASK_STATUSES = [
  M.startApproval,
  M.restart,
  M.startSign,
  M.startExecution,
  M.moveToArchive,
  M.moveToRepository,
] as const;
export const MANAGE_TASK_STATUSES = Object.values(MANAGEMENT_TASK_STATUS);
export const ANSWER_TASK_STATUSES = Object.values(RESPONSE_TASK_STATUS);

/** `approveWithEdits` → `approve with edits`. */
const words = (name: string) => name.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);

const namesOf = (codes: Readonly<Record<string, number>>): Readonly<Record<number, string>> =>
  Object.fromEntries(Object.entries(codes).map(([name, code]) => [code, words(name)]));

/** Each task status in words, for OpenAPI, clients and messages: e.g. 100 → `start approval`. */
export const TASK_STATUS_NAMES = namesOf({ ...RESPONSE_TASK_STATUS, ...MANAGEMENT_TASK_STATUS });
/** Each `state` code in words: 1 → `approval`. */
export const STATE_NAMES = namesOf(STATE_CODES);
/** Each `status` code in words: 2 → `in progress`. */
export const STATUS_NAMES = namesOf(STATUS_CODES);

/** `100 (start approval)`: a task status as messages name it. */
export const taskStatusLabel = (code: number): string =>
  TASK_STATUS_NAMES[code] ? `${code} (${TASK_STATUS_NAMES[code]})` : String(code);

/** `100 start approval, 101 suspend, …`: the codes of a list with their names, for descriptions. */
export const namedCodes = (
  codes: readonly number[],
  names: Readonly<Record<number, string>> = TASK_STATUS_NAMES,
): string => codes.map((code) => `${code} ${names[code] ?? ''}`.trim()).join(', ');

/**
 * The OpenAPI of a numeric code: its enum, each code named in `x-enum-descriptions` and in the
 * description. @example z.number().int().openapi(namedEnum(STATE_NAMES))
 */
export const namedEnum = (
  names: Readonly<Record<number, string>>,
  codes: readonly number[] = Object.keys(names).map(Number),
) => ({
  type: 'integer' as const,
  enum: [...codes],
  description: namedCodes(codes, names),
  'x-enum-descriptions': codes.map((code) => names[code] ?? ''),
});

/** What failed, in words, when a workflow move was refused: the start of a message like `approval could not start: …`. */
const MOVE_FAILED: Readonly<Record<keyof typeof MANAGEMENT_TASK_STATUS, string>> = {
  startApproval: 'approval could not start',
  suspend: 'the workflow could not be suspended',
  resume: 'the workflow could not resume',
  cancel: 'the document could not be cancelled',
  restart: 'the workflow could not restart',
  startSign: 'signing could not start',
  startExecution: 'execution could not start',
  moveToArchive: 'the document could not move to the archive',
  moveToRepository: 'the document could not move to the repository',
  block: 'the document could not be blocked',
  delete: 'the document could not be deleted',
};
/** What failed, in words, when a participant's answer was refused: `the document could not be signed: …`. */
const ANSWER_FAILED: Readonly<Record<keyof typeof RESPONSE_TASK_STATUS, string>> = {
  approve: 'the document could not be approved',
  approveWithEdits: 'the document could not be approved with edits',
  decline: 'the document could not be declined',
  executionDone: 'the execution could not be reported done',
  sign: 'the document could not be signed',
};
const TASK_STATUS = { ...MANAGEMENT_TASK_STATUS, ...RESPONSE_TASK_STATUS };
const MOVE_FAILED_BY_CODE: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries({ ...MOVE_FAILED, ...ANSWER_FAILED }).map(([name, text]) => [
    TASK_STATUS[name as keyof typeof TASK_STATUS],
    text,
  ]),
);

/** `approval could not start: not your task`: a refused workflow action or answer named in words. */
export const actionRefused = (code: number, why: string): string =>
  `${MOVE_FAILED_BY_CODE[code] ?? `${TASK_STATUS_NAMES[code] ?? `action ${code}`} could not be applied`}: ${why}`;

/** `in progress`: a document's status as messages name it. */
export const statusWords = (status: DocStatus): string => words(status);
