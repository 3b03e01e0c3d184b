/** Admin API (extension, DESIGN.md): forms and the view read model. Needs role `svcAdminSysRW`. */
import { createRoute, z } from '@hono/zod-openapi';
import { FormDefinition, FormName, StoredForm } from '../forms';
import { problemsFor } from '../responses';

/** A stored form leads to reading it and to creating a document from it. */
const formLinks = {
  GetForm: { operationId: 'getForm', parameters: { formName: '$response.body#/name' } },
  CreateDocument: { operationId: 'createDocument', parameters: { formName: '$response.body#/name' } },
};

export const putFormRoute = createRoute({
  operationId: 'putForm',
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
      links: formLinks,
    },
    201: {
      description: 'Defined.',
      content: { 'application/json': { schema: StoredForm } },
      links: formLinks,
    },
    ...problemsFor(400, 401, 403, 409, 413, 415, 429, 503),
  },
});

export const getFormRoute = createRoute({
  operationId: 'getForm',
  method: 'get',
  path: '/api/admin/v1/forms/{formName}',
  tags: ['admin'],
  summary: 'Read a form',
  request: { params: z.object({ formName: FormName }) },
  responses: {
    200: {
      description: 'The form.',
      content: { 'application/json': { schema: StoredForm } },
      links: { CreateDocument: formLinks.CreateDocument },
    },
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});

export const rebuildViewsRoute = createRoute({
  operationId: 'rebuildViews',
  method: 'post',
  path: '/api/admin/v1/views/rebuild',
  tags: ['admin'],
  summary: 'Drop the view read model and replay every document event into it',
  responses: {
    200: {
      description: 'Rebuilt.',
      content: { 'application/json': { schema: z.object({ applied: z.number().int(), ms: z.number() }) } },
    },
    ...problemsFor(401, 403, 429, 503),
  },
});
