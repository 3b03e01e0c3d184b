/**
 * The routes as the OpenAPI document publishes them agree with what the services answer: stored forms
 * and `fields` selections fit their response schemas, every route documents the problems any request
 * can meet, and every link leads to an operation and parameters that exist.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OpenAPIHono } from '@hono/zod-openapi';
import * as contracts from '../index';

type Route = Parameters<OpenAPIHono['openAPIRegistry']['registerPath']>[0];

const isRoute = (value: unknown): value is Route =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'responses' in value;

const ROUTES: Route[] = [
  ...(Object.values(contracts) as unknown[]).filter(isRoute),
  ...contracts.PERSON_API_VERSIONS.flatMap((v) => [
    contracts.getPersonRoute(v),
    contracts.updatePersonRoute(v),
  ]),
];

function openApiDocument() {
  const app = new OpenAPIHono();
  for (const route of ROUTES) app.openAPIRegistry.registerPath(route);
  return app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'docflow', version: 'test' } });
}

const meta = { _created: '2026-11-24T01:00:00.000Z', _lastmodified: '2026-11-24T01:00:00.000Z', _rev: 2 };

const doc = {
  _id: '6b04e41bbb86ad8e68ce8568',
  _id_web: 'awTkG7uGrY5ozoVo',
  _meta: { ...meta, _rev: 1 },
  form: 'memo',
  author: 'usr-9c8d4012-42ff-441e-bca8-bf83280d5765',
  state: 0,
  step: 0,
  iteration: 0,
  status: 1,
  formsystype: 1,
  datecreated: meta._created,
  datedue: '',
  valuesByTags: { subject: 'Budget' },
  _tags: [],
  filesList: [{ id: '6b04e41bbb86ad8e68ce8569', fileName: 'plan.pdf' }],
  recoStatus: 'none',
};

describe('route contracts', () => {
  it('a stored form, as PUT and GET answer it, fits StoredForm: one object with _meta beside the definition', () => {
    const stored = {
      _meta: meta,
      name: 'memo',
      title: 'Internal memo',
      formsystype: 1,
      tags: { subject: 'string' },
      workflow: {},
      recognition: { forms: [] },
    };
    assert.ok(contracts.StoredForm.safeParse(stored).success);
    assert.ok(!contracts.StoredForm.safeParse({ ...stored, _meta: undefined }).success);
    const schema = openApiDocument().components?.schemas?.StoredForm as Record<string, any>;
    assert.equal(schema.allOf, undefined);
    assert.deepEqual(Object.keys(schema.properties).sort(), [
      '_meta',
      'formsystype',
      'name',
      'recognition',
      'tags',
      'title',
      'titleField',
      'workflow',
    ]);
  });

  it('GET document: the whole document with embeds, or a `fields` selection keeping _id and _id_web', () => {
    const read = contracts.getDocumentRoute.responses[200].content['application/json'].schema;
    assert.equal(read, contracts.DocFormRead);
    const fits = (value: unknown) => contracts.DocFormRead.safeParse(value).success;
    assert.ok(fits(doc));
    assert.ok(fits({ ...doc, docResponse: null, recoData: [] }));
    // fields=nothing-known, and fields=id&embed=filesList (an embedded entity filtered by the names)
    assert.ok(fits({ _id: doc._id, _id_web: doc._id_web }));
    assert.ok(fits({ _id: doc._id, _id_web: doc._id_web, filesList: [{ id: doc.filesList[0]!.id }] }));
    assert.ok(!fits({ _id_web: doc._id_web, state: 0 }));
  });

  it('every API route documents the problems any request can meet: 401 (unless it takes no credentials), 403, 429, 503', () => {
    for (const route of ROUTES.filter((r) => r.path.startsWith('/api/'))) {
      const open = Array.isArray(route.security) && route.security.length === 0;
      for (const code of open ? [403, 429, 503] : [401, 403, 429, 503])
        assert.ok(code in route.responses, `${route.method} ${route.path} documents ${code}`);
    }
  });

  it('a route with path parameters documents 400; one with a JSON body documents 400, 413 and 415', () => {
    for (const route of ROUTES) {
      const name = `${route.method} ${route.path}`;
      if (route.request?.params) assert.ok(400 in route.responses, `${name} documents 400`);
      if (route.request?.body?.content['application/json'])
        for (const code of [400, 413, 415]) assert.ok(code in route.responses, `${name} documents ${code}`);
    }
  });

  it('every link leads to an operation of the document and sets only parameters it declares', () => {
    const document = openApiDocument();
    const operations = new Map<string, { parameters?: any[]; requestBody?: any }>();
    for (const item of Object.values(document.paths ?? {}))
      for (const operation of Object.values(item as Record<string, any>))
        if (operation?.operationId) operations.set(operation.operationId, operation);
    let links = 0;
    for (const [path, item] of Object.entries(document.paths ?? {}))
      for (const [method, operation] of Object.entries(item as Record<string, any>))
        for (const [status, response] of Object.entries<any>(operation.responses ?? {}))
          for (const [name, link] of Object.entries<any>(response.links ?? {})) {
            const where = `${method} ${path} ${status} ${name}`;
            const target = operations.get(link.operationId);
            assert.ok(target, `${where}: no operation ${link.operationId}`);
            for (const key of Object.keys(link.parameters ?? {})) {
              const [location, parameter] = key.includes('.') ? key.split('.', 2) : [undefined, key];
              const declared = (target.parameters ?? []).some(
                (p) => p.name === parameter && (location === undefined || p.in === location),
              );
              assert.ok(declared, `${where}: ${link.operationId} has no parameter ${key}`);
            }
            if (link.requestBody)
              assert.ok(target.requestBody, `${where}: ${link.operationId} takes no body`);
            links++;
          }
    assert.ok(links >= 20, `${links} links`);
  });
  it('every task status the document publishes is named: a list of the codes with their names beside each enum', () => {
    const found: string[] = [];
    const visit = (node: unknown, where: string) => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as { enum?: unknown[]; description?: string; 'x-enum-descriptions'?: string[] };
      if (where.endsWith('/taskstatus') && Array.isArray(schema.enum)) {
        found.push(where);
        const names = schema['x-enum-descriptions'] ?? [];
        assert.equal(names.length, schema.enum.length, `${where}: a name per code`);
        for (const [i, code] of schema.enum.entries()) {
          assert.equal(names[i], contracts.TASK_STATUS_NAMES[code as number], `${where}: ${code}`);
          assert.ok(schema.description?.includes(`${code} ${names[i]}`), `${where}: ${schema.description}`);
        }
      }
      for (const [key, value] of Object.entries(node)) visit(value, `${where}/${key}`);
    };
    visit(openApiDocument(), '');
    assert.ok(found.length >= 2, found.join(' '));
    assert.equal(contracts.taskStatusLabel(100), '100 (start approval)');
    assert.equal(contracts.TASK_STATUS_NAMES[3], 'approve with edits');
  });
});
