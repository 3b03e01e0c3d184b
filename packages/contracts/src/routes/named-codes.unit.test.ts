/**
 * Every `state` and `status` code the API publishes is named in OpenAPI (an enum with a name beside
 * each code), and a refused workflow action is told in words rather than by its number.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OpenAPIHono } from '@hono/zod-openapi';
import * as contracts from '../index';

type Named = { enum?: number[]; description?: string; 'x-enum-descriptions'?: string[] };

const schemas = () => {
  const app = new OpenAPIHono();
  for (const [name, schema] of [
    ['DocForm', contracts.DocForm],
    ['DocResponse', contracts.DocResponse],
    ['WebhookPayload', contracts.WebhookPayload],
  ] as const)
    app.openAPIRegistry.register(name, schema);
  const doc = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'docflow', version: 'test' } });
  const found = doc.components?.schemas ?? {};
  const properties = (name: string) => (found[name] as { properties: Record<string, Named> }).properties;
  return {
    DocForm: properties('DocForm'),
    DocResponse: properties('DocResponse'),
    webhookData: (properties('WebhookPayload').data as { properties: Record<string, Named> }).properties,
  };
};

const assertNamed = (schema: Named, names: Readonly<Record<number, string>>, where: string) => {
  const codes = Object.keys(names).map(Number);
  assert.deepEqual(schema.enum, codes, `${where}: enum`);
  assert.deepEqual(
    schema['x-enum-descriptions'],
    codes.map((code) => names[code]),
    `${where}: a name per code`,
  );
  for (const code of codes) assert.ok(schema.description?.includes(`${code} ${names[code]}`), where);
};

describe('codes named in OpenAPI: state and status', () => {
  it('DocForm, DocResponse and the webhook payload name each state and status code', () => {
    const s = schemas();
    const check = (schema: Named | undefined, names: Readonly<Record<number, string>>, where: string) => {
      assert.ok(schema, where);
      assertNamed(schema, names, where);
    };
    check(s.DocForm.state, contracts.STATE_NAMES, 'DocForm.state');
    check(s.DocForm.status, contracts.STATUS_NAMES, 'DocForm.status');
    check(s.DocResponse.state, contracts.STATE_NAMES, 'DocResponse.state');
    check(s.webhookData.state, contracts.STATE_NAMES, 'WebhookPayload.data.state');
    check(s.webhookData.status, contracts.STATUS_NAMES, 'WebhookPayload.data.status');
    assert.equal(contracts.STATE_NAMES[1], 'approval');
    assert.equal(contracts.STATUS_NAMES[2], 'in progress');
  });
});

describe('a refused workflow action in words', () => {
  it('names what could not happen, never the bare code', () => {
    assert.equal(contracts.actionRefused(100, 'not your task'), 'approval could not start: not your task');
    assert.equal(contracts.actionRefused(105, 'no signers'), 'signing could not start: no signers');
    assert.equal(
      contracts.actionRefused(107, 'it is declined'),
      'the document could not move to the archive: it is declined',
    );
    for (const code of contracts.MANAGE_TASK_STATUSES)
      assert.doesNotMatch(contracts.actionRefused(code, 'why'), /\d/, `${code}`);
  });
});
