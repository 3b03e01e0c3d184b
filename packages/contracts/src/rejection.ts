/**
 * Why the domain refuses a command, in its own words: what pure decide and access code throws. It
 * knows no HTTP; the service edge (kit's `toProblemError`) maps each kind to its status once:
 * invalid 400, forbidden 403, notFound 404, conflict 409, notApplicable 422.
 */
import type { z } from '@hono/zod-openapi';
import type { ValidationIssue } from './problem';

export type RejectionKind = 'invalid' | 'forbidden' | 'notFound' | 'conflict' | 'notApplicable';

/** A refused command. Its message is safe to show the caller as it is. */
export class Rejection extends Error {
  override readonly name = 'Rejection';
  constructor(
    readonly kind: RejectionKind,
    message: string,
    /** What is wrong with which field, for an `invalid` command. */
    readonly errors?: Array<z.infer<typeof ValidationIssue>>,
  ) {
    super(message);
  }
}

export const rejections = {
  /** The command can never succeed as it is (a value out of range, a field that does not fit). */
  invalid: (message: string, errors?: Rejection['errors']) => new Rejection('invalid', message, errors),
  forbidden: (message: string) => new Rejection('forbidden', message),
  notFound: (message: string) => new Rejection('notFound', message),
  conflict: (message: string) => new Rejection('conflict', message),
  /**
   * A valid command that the current state refuses: executed, nothing changed (the contract's 422,
   * answered by kit's `problems.nothingChanged`, NOTHING_CHANGED_422 in packages/kit/src/problem.ts).
   */
  notApplicable: (message: string) => new Rejection('notApplicable', message),
};

/**
 * Whether `decide` would change something rather than refuse or decide nothing: what a client may be
 * offered (`embed=actions`) is asked of the decide code that enforces it.
 */
export function wouldChange(decide: () => readonly unknown[]): boolean {
  try {
    return decide().length > 0;
  } catch (error) {
    if (error instanceof Rejection) return false;
    throw error;
  }
}
