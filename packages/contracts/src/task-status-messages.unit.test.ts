/**
 * A request's task status that is none of the ones it takes is refused with each of those named
 * (`must be one of 100 start approval, 101 suspend, …`), not as bare numbers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { z } from '@hono/zod-openapi';
import { AnswerRequest, CreateDocResponse, ManageRequest } from './documents';

const messageOf = (schema: z.ZodType, value: unknown): string => {
  const parsed = schema.safeParse(value);
  assert.equal(parsed.success, false);
  return parsed.error!.issues.map((i) => i.message).join('; ');
};

describe('task status refusals name the statuses', () => {
  it('a management move', () => {
    assert.match(
      messageOf(ManageRequest, { docResponse: { taskstatus: 2 } }),
      /^must be one of 100 start approval, 101 suspend, .*, 111 delete$/,
    );
  });
  it('an answer', () => {
    assert.equal(
      messageOf(AnswerRequest, { docResponse: { taskstatus: 100 } }),
      'must be one of 2 approve, 3 approve with edits, 4 decline, 5 execution done, 8 sign',
    );
  });
  it("a create's workflow action", () => {
    assert.equal(
      messageOf(CreateDocResponse, { taskstatus: 101 }),
      'must be one of 100 start approval, 104 restart, 105 start sign, 106 start execution, 107 move to archive, 108 move to repository',
    );
  });
});
