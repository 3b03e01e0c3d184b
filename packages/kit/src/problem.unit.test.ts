import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlobTooLarge } from '@docflow/blobstore';
import { BusUnavailable } from '@docflow/bus';
import { rejections } from '@docflow/contracts';
import { AppendTooLarge, StoreUnavailable, WrongExpectedRevision } from '@docflow/eventstore';
import { Hono } from 'hono';
import { handleError, handleNotFound, problems } from './problem';

function appThrowing(err: unknown) {
  const app = new Hono();
  app.onError(handleError);
  app.notFound(handleNotFound);
  app.get('/x', () => {
    throw err;
  });
  return app;
}

async function problemOf(err: unknown) {
  const res = await appThrowing(err).request('/x');
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    headers: res.headers,
    body: (await res.json()) as any,
  };
}

describe('problem+json mapping', () => {
  it('a ProblemError keeps its status, detail and headers', async () => {
    const p = await problemOf(problems.unauthorized('no key'));
    assert.equal(p.status, 401);
    assert.equal(p.type, 'application/problem+json');
    assert.equal(p.body.detail, 'no key');
    assert.equal(p.headers.get('www-authenticate'), 'Bearer');
  });
  it('a domain rejection answers as the problem it stands for: status, type, title, detail, errors', async () => {
    const errors = [{ pointer: 'docForm.valuesByTags.colour', message: 'the form memo has no tag colour' }];
    const cases = [
      [
        rejections.invalid('values do not fit the form', errors),
        problems.badRequest('values do not fit the form', errors),
        400,
      ],
      [rejections.forbidden('not yours'), problems.forbidden('not yours'), 403],
      [rejections.notFound('no such document'), problems.notFound('no such document'), 404],
      [rejections.conflict('exists already'), problems.conflict('exists already'), 409],
      [
        rejections.notApplicable('the workflow is suspended'),
        problems.nothingChanged('the workflow is suspended'),
        422,
      ],
    ] as const;
    for (const [rejection, problem, status] of cases) {
      const answer = await problemOf(rejection);
      assert.equal(answer.status, status, rejection.kind);
      assert.equal(answer.type, 'application/problem+json');
      assert.deepEqual(answer.body, problem.toProblem('/x'));
    }
  });
  it('a concurrent write is 409, a too large blob or append 413', async () => {
    assert.equal((await problemOf(new WrongExpectedRevision('s', 1, 2))).status, 409);
    assert.equal((await problemOf(new BlobTooLarge(10))).status, 413);
    assert.equal((await problemOf(new AppendTooLarge('docForm-1', 1_048_576, 2_000_000))).status, 413);
  });
  it('an unavailable engine is 503 with Retry-After', async () => {
    for (const err of [new StoreUnavailable('x'), new BusUnavailable('y')]) {
      const p = await problemOf(err);
      assert.equal(p.status, 503);
      assert.ok(Number(p.headers.get('retry-after')) > 0);
    }
  });
  it('anything else is a 500 that leaks neither message nor stack', async () => {
    const p = await problemOf(new Error('secret connection string postgres://u:pw@db'));
    assert.equal(p.status, 500);
    const text = JSON.stringify(p.body);
    assert.ok(!text.includes('secret') && !text.includes('at '), text);
  });
  it('an unknown route is a 404 problem', async () => {
    const res = await appThrowing(null).request('/nowhere');
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('content-type'), 'application/problem+json');
  });
});
