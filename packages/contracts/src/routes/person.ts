/** Person routes, declared once for both API versions. */
import { createRoute, z } from '@hono/zod-openapi';
import { UsrId } from '../ids';
import { Person, PersonUpdate } from '../person';
import { problemsFor, runAsHeader } from '../responses';

export const PERSON_API_VERSIONS = ['v1', 'v2'] as const;
export type PersonApiVersion = (typeof PERSON_API_VERSIONS)[number];

/** `getPersonV1`, `updatePersonV2`, ...: one operation id per version. */
const operationId = (name: string, version: PersonApiVersion) => `${name}${version.toUpperCase()}`;

export const getPersonRoute = (version: PersonApiVersion) =>
  createRoute({
    operationId: operationId('getPerson', version),
    method: 'get',
    path: `/api/${version}/person/{id}`,
    tags: ['person'],
    summary: 'Read a person',
    description:
      'Any authenticated principal may read a person (a directory lookup, e.g. to choose a deputy).',
    request: { params: z.object({ id: UsrId }) },
    parameters: [runAsHeader],
    responses: {
      200: { description: 'The person.', content: { 'application/json': { schema: Person } } },
      ...problemsFor(400, 401, 403, 404, 429, 503),
    },
  });

export const updatePersonRoute = (version: PersonApiVersion) =>
  createRoute({
    operationId: operationId('updatePerson', version),
    method: 'post',
    path: `/api/${version}/person`,
    tags: ['person'],
    summary: 'Update a person',
    description:
      'Needs role `svcAdminSysRW`. Only the fields given change; `pwd` is accepted here only and never returned.',
    request: { body: { required: true, content: { 'application/json': { schema: PersonUpdate } } } },
    parameters: [runAsHeader],
    responses: {
      200: {
        description: 'The updated person.',
        content: { 'application/json': { schema: Person } },
        links: {
          GetPerson: {
            operationId: operationId('getPerson', version),
            parameters: { id: '$response.body#/_id_sys' },
          },
        },
      },
      ...problemsFor(400, 401, 403, 404, 409, 413, 415, 429, 503),
    },
  });
