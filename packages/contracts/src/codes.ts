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
