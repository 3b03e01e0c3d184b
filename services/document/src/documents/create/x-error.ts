/**
 * The `X-Error` answer of a create (pure): the document was created, the workflow action asked with
 * it was not applied, and why. The create still answers 201.
 */
import { actionRefused } from '@docflow/contracts';
import { toProblemError } from '@docflow/kit/http';

export const X_ERROR_HEADER = 'x-error';

/** @example c.header(X_ERROR_HEADER, workflowNotApplied(100, err)); // `approval could not start: …` */
export function workflowNotApplied(taskstatus: number, err: unknown): string {
  const problem = toProblemError(err);
  return actionRefused(taskstatus, problem.detail ?? problem.title);
}
