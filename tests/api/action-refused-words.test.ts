/**
 * A workflow action asked with a create and refused is told in words (issue 33): the `X-Error` of the
 * 201 says "approval could not start: …", never "workflow action 100 … not applied".
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDoc } from '../support/documents';
import { apiClient } from '../support/http';
import { startEmbedded, type Target } from '../support/targets';

describe('a refused workflow action in words', { timeout: 120_000 }, () => {
  let target: Target;

  before(async () => {
    target = await startEmbedded();
    const noApproval = { name: 'plain', title: 'Plain', formsystype: 1, tags: { subject: 'string' } };
    const put = await apiClient(target.baseUrl)('PUT', '/api/admin/v1/forms/plain', {
      key: target.adminKey,
      body: noApproval,
    });
    assert.equal(put.status, 201, put.text);
  });
  after(async () => {
    await target?.stop();
  });

  it('a create asking for an approval the form does not configure: 201, X-Error names what failed', async () => {
    const res = await createDoc(target.baseUrl, target.adminKey, 'plain', {
      docForm: {},
      docResponse: { taskstatus: 100 },
    });
    assert.equal(res.status, 201, res.text);
    const xError = res.headers.get('x-error') ?? '';
    assert.match(xError, /^approval could not start: \S/);
    assert.doesNotMatch(xError, /\b100\b|not applied/);
  });
});
