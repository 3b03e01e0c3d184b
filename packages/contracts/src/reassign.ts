/**
 * Handing an open task to another person (issue 36): `POST /api/v2/docForm/{id}/docResponse/{respId}/reassign`
 * with whom to and why. The old assignee's task closes, a task for the new one opens.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { DocForm } from './documents';
import { Hex24Id } from './ids';
import { Participant } from './participant';
import { idempotencyKeyHeader, ifMatchHeader, problemsFor, runAsHeader } from './responses';

const REASSIGN_REASON_MAX = 500;

export const ReassignRequest = z
  .strictObject({
    to: Participant.openapi({
      description: 'The person to hand the task to: a `usr-` id or an e-mail address.',
    }),
    reason: z
      .string()
      .trim()
      .min(1)
      .max(REASSIGN_REASON_MAX)
      .openapi({ description: 'Why, as the history shows it ("on holiday").' }),
  })
  .openapi('ReassignRequest');
export type ReassignRequest = z.infer<typeof ReassignRequest>;

export const reassignTaskRoute = createRoute({
  operationId: 'reassignTask',
  method: 'post',
  path: '/api/v2/docForm/{id}/docResponse/{respId}/reassign',
  tags: ['workflow'],
  summary: 'Hand an open task to another person, with a reason (extension)',
  description:
    'For the participants of the task\u2019s stage, the initiator, and holders of svcAdminDocRW. The old ' +
    'assignee\u2019s task closes and one for the named person opens in the same stage. 422: the person is no ' +
    'known active person, the task is not open, or the person already has it or another task of the stage.',
  request: {
    params: z.object({
      id: z.string().min(8).max(64).openapi({ description: '`_id` (24 hex) or `_id_web` of the document.' }),
      respId: Hex24Id,
    }),
    body: { required: true, content: { 'application/json': { schema: ReassignRequest } } },
  },
  parameters: [runAsHeader, ifMatchHeader, idempotencyKeyHeader],
  responses: {
    200: {
      description: 'Handed over: the document as it is now.',
      content: { 'application/json': { schema: DocForm } },
    },
    ...problemsFor(400, 401, 403, 404, 409, 412, 413, 415, 422, 429, 503),
  },
});
