/** RFC 9457 problem details, the body of every error answer. */
import { z } from '@hono/zod-openapi';

export const ValidationIssue = z.object({
  /** Where the problem is: `body.deputy.id`, `query.pageSize`, `header.svc-run-as`. */
  pointer: z.string(),
  message: z.string(),
});

export const Problem = z
  .object({
    type: z.string().openapi({ example: 'https://docflow.dev/problems/validation' }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    errors: z.array(ValidationIssue).optional(),
  })
  .openapi('Problem');
export type Problem = z.infer<typeof Problem>;
