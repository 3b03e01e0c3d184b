/** `GET /api/v2/me`: who the caller is for this request, and what it may do. */
import { z } from '@hono/zod-openapi';
import { Account } from './accounts';
import { UsrId } from './ids';
import { Capabilities } from './roles';

export const Me = Account.pick({ _id_sys: true, kind: true, email: true, name_first: true, name_last: true })
  .extend({
    roles: Account.shape.roles.openapi({
      description:
        'The roles that count: with svc-run-as, those the person and the service account both hold.',
    }),
    actingThrough: z.object({ serviceAccount: UsrId }).nullable().openapi({
      description: 'The service account acting on the person\u2019s behalf (svc-run-as), or null.',
    }),
    capabilities: Capabilities,
  })
  .openapi('Me', {
    description: 'The effective principal: the run-as person, or the service account itself.',
  });
export type Me = z.infer<typeof Me>;
