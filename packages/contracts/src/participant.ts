/** Who takes part in a form's work (stage participant, escalation contact, validator): a `usr-` id or an
 * e-mail address (kept as a `usr-` id once known). */
import { z } from '@hono/zod-openapi';
import { rejections } from './rejection';

export const Participant = z.string().trim().min(3).max(254);

/**
 * Why a command naming a person (a task's new assignee, a deputy) is refused when the `usr-` id or
 * e-mail names no active person: the same words and the contract's 422 wherever a person is named.
 */
export const noActivePerson = (ref: string) => rejections.notApplicable(`${ref} is no known active person`);
