/** A workflow participant or escalation contact in a form: a `usr-` id or an e-mail address. */
import { z } from '@hono/zod-openapi';

export const Participant = z.string().trim().min(3).max(254);
