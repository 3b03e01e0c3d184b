import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rejections } from '@docflow/contracts';
import { problems } from '@docflow/kit/http';
import { workflowNotApplied } from './x-error';

describe('create step: the X-Error answer', () => {
  it("names the action and the refusal's detail", () => {
    assert.equal(
      workflowNotApplied(100, problems.forbidden('not your task')),
      'approval could not start: not your task',
    );
    assert.equal(
      workflowNotApplied(100, rejections.notApplicable('the workflow has started already')),
      'approval could not start: the workflow has started already',
    );
  });

  it('an unknown failure says nothing of its internals', () => {
    const header = workflowNotApplied(100, new Error('ECONNREFUSED 10.0.0.7:8083'));
    assert.doesNotMatch(header, /ECONNREFUSED|10\.0\.0\.7/);
    assert.match(header, /^approval could not start: /);
  });
});
