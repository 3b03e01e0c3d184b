/** Admin API (extension, DESIGN.md): forms and the view read model. Needs role `svcAdminSysRW`. */
import { createRoute, z } from '@hono/zod-openapi';
import { FormDefinition, FormName, StoredForm } from '../forms';
import { problemsFor } from '../responses';

export const putFormRoute = createRoute({
  method: 'put',
  path: '/api/admin/v1/forms/{formName}',
  tags: ['admin'],
  summary: 'Define or redefine a form',
  request: {
    params: z.object({ formName: FormName }),
    body: { required: true, content: { 'application/json': { schema: FormDefinition } } },
  },
  responses: {
    200: {
      description: 'Redefined (or unchanged).',
      content: { 'application/json': { schema: StoredForm } },
    },
    201: { description: 'Defined.', content: { 'application/json': { schema: StoredForm } } },
    ...problemsFor(400, 401, 403, 415, 503),
  },
});

export const getFormRoute = createRoute({
  method: 'get',
  path: '/api/admin/v1/forms/{formName}',
  tags: ['admin'],
  summary: 'Read a form',
  request: { params: z.object({ formName: FormName }) },
  responses: {
    200: { description: 'The form.', content: { 'application/json': { schema: StoredForm } } },
    ...problemsFor(400, 401, 403, 404, 503),
  },
});

export const rebuildViewsRoute = createRoute({
  method: 'post',
  path: '/api/admin/v1/views/rebuild',
  tags: ['admin'],
  summary: 'Drop the view read model and replay every document event into it',
  responses: {
    200: {
      description: 'Rebuilt.',
      content: { 'application/json': { schema: z.object({ applied: z.number().int(), ms: z.number() }) } },
    },
    ...problemsFor(401, 403, 503),
  },
});
