/** Out of office (issue 36): a person sets their own absence and the deputy who takes their tasks then. */
import { createRoute, z } from '@hono/zod-openapi';
import { Timestamp, UsrId } from '../ids';
import { Person, periodInOrder, periodMessage } from '../person';
import { problemsFor } from '../responses';

export const Absence = z
  .strictObject({
    deputy: UsrId.openapi({ description: 'The person who takes the tasks arriving while away.' }),
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
    'past ends it. 403 for a service account acting as itself; 400 for an unknown deputy or oneself.',
  request: { body: { required: true, content: { 'application/json': { schema: Absence } } } },
  responses: {
    200: {
      description: 'The person, with the absence.',
      content: { 'application/json': { schema: Person } },
    },
    ...problemsFor(400, 401, 403, 413, 415, 429, 503),
  },
});
