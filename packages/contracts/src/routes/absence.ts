/** Out of office (issue 36): a person sets their own absence and the deputy who takes their tasks then. */
import { createRoute, z } from '@hono/zod-openapi';
import { Timestamp } from '../ids';
import { Participant } from '../participant';
import { Person, periodInOrder, periodMessage } from '../person';
import { problemsFor } from '../responses';

export const Absence = z
  .strictObject({
    deputy: Participant.openapi({
      description:
        'The person who takes the tasks arriving while away: a `usr-` id or an e-mail address (kept as the ' +
        'person\u2019s `usr-` id).',
    }),
    from: Timestamp,
    to: Timestamp.openapi({
      description: 'Exclusive: tasks arriving from this moment are the person\u2019s again.',
    }),
  })
  .refine(periodInOrder, periodMessage)
  .openapi('Absence');
export type Absence = z.infer<typeof Absence>;

export const setAbsenceRoute = createRoute({
  operationId: 'setAbsence',
  method: 'put',
  path: '/api/v2/me/absence',
  tags: ['person'],
  summary:
    'Set the caller\u2019s own absence: tasks arriving from `from` up to `to` go to `deputy` (extension)',
  description:
    'For a person acting as themselves (session, personal token, or svc-run-as). It sets the person\u2019s deputy ' +
    'and enables it; the deputy acts on the person\u2019s behalf in tasks that open in the period. A `to` in the ' +
    'past ends it. 403 for a service account acting as itself; 400 for oneself as deputy; 422 when the deputy ' +
    'is no known active person.',
  request: { body: { required: true, content: { 'application/json': { schema: Absence } } } },
  responses: {
    200: {
      description: 'The person, with the absence.',
      content: { 'application/json': { schema: Person } },
    },
    ...problemsFor(400, 401, 403, 413, 415, 422, 429, 503),
  },
});
