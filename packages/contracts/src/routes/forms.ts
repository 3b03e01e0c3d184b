/** Admin API (extension, DESIGN.md): forms and the view read model. Needs role `svcAdminSysRW`. */
import { createRoute, z } from '@hono/zod-openapi';
import { FormDefinition, FormName, FormSummary, StoredForm } from '../forms';
import { RecognitionMemory } from '../recognition-memory';
import { problemResponses, problemsFor } from '../responses';

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
    422: {
      ...problemResponses[422],
      description:
        'A participant is no person\u2019s account (no account has that `usr-` id or e-mail, or it is a ' +
        'service account): `errors` points at each one; nothing was saved.',
    },
  },
});

export const listFormsRoute = createRoute({
  operationId: 'listForms',
  method: 'get',
  path: '/api/admin/v1/forms',
  tags: ['admin'],
  summary: 'List every form, by name',
  description:
    'Each form as `GET /api/admin/v1/forms/{formName}` shows it. A form defined before the request is listed.',
  responses: {
    200: {
      description: 'Every form, ordered by name.',
      content: { 'application/json': { schema: z.array(StoredForm) } },
    },
    ...problemsFor(400, 401, 403, 429, 503),
  },
});

export const listCreatableFormsRoute = createRoute({
  operationId: 'listCreatableForms',
  method: 'get',
  path: '/api/v2/forms',
  tags: ['docForm'],
  summary: 'The forms the caller may create documents of',
  description:
    'Every principal creates documents of every form (`capabilities.createDocuments` of `GET /api/v2/me`), ' +
    'so this lists every form: its name, title and fields, not its workflow nor its recognition rules.',
  responses: {
    200: {
      description: 'Every form, ordered by name.',
      content: { 'application/json': { schema: z.array(FormSummary) } },
    },
    ...problemsFor(400, 401, 403, 429, 503),
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

/** A supplier in a path: as recognition compares it (normaliseSupplier), percent-encoded. */
const SupplierParam = z.string().min(1).max(200);

export const getRecognitionMemoryRoute = createRoute({
  operationId: 'getRecognitionMemory',
  method: 'get',
  path: '/api/admin/v1/forms/{formName}/recognition-memory',
  tags: ['admin'],
  summary: 'What recognition learnt from corrections on documents of a form',
  description:
    'Per supplier, where each value a validator corrected stood (its label and place), tried first on ' +
    'that supplier\u2019s next document. Empty for a form nothing was learnt of (or no such form).',
  request: { params: z.object({ formName: FormName }) },
  responses: {
    200: {
      description: 'The form\u2019s memory.',
      content: { 'application/json': { schema: RecognitionMemory } },
    },
    ...problemsFor(400, 401, 403, 429, 503),
  },
});

export const forgetSupplierRoute = createRoute({
  operationId: 'forgetRecognitionSupplier',
  method: 'delete',
  path: '/api/admin/v1/forms/{formName}/recognition-memory/{supplier}',
  tags: ['admin'],
  summary: 'Remove what recognition learnt of one supplier on a form',
  request: { params: z.object({ formName: FormName, supplier: SupplierParam }) },
  responses: {
    204: {
      description: 'Forgotten: the supplier\u2019s next document is read by the form\u2019s fields alone.',
    },
    ...problemsFor(400, 401, 403, 404, 429, 503),
  },
});
