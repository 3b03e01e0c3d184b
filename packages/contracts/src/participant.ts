/** Who takes part in a form's work (stage participant, escalation contact, validator): a `usr-` id or an
 * e-mail address (kept as a `usr-` id once known). */
import { z } from '@hono/zod-openapi';

export const Participant = z.string().trim().min(3).max(254);
