/** Who am I: the effective principal of the request and what it may do (extension). */
import { createRoute } from '@hono/zod-openapi';
import { Me } from '../me';
import { problemsFor } from '../responses';

export const meRoute = createRoute({
  operationId: 'getMe',
  method: 'get',
  path: '/api/v2/me',
  tags: ['person'],
  summary: 'The caller: account, effective roles and capabilities',
  description:
    'What a client needs to show only what the server accepts: per document, `embed=actions` on GET docForm/{id} says the rest.',
  responses: {
    200: { description: 'The effective principal.', content: { 'application/json': { schema: Me } } },
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});
