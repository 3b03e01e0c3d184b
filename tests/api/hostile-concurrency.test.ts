/**
 * Concurrent requests against one document (issue 29): of management moves sent at once with the same
 * `If-Match`, exactly one acts and every other is refused with 412 — the precondition holds at the
 * append, not only when the request is read.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DocflowClient, DocflowProblem } from '@docflow/client';
import { setUpClientSystem } from '../support/client';
import { type Target, targets } from '../support/targets';

const TRIALS = 5;
/** Suspend, cancel and restart: each one acts on a document in approval, so only the precondition refuses. */
const MOVES = [101, 103, 104, 101, 103, 104] as const;

for (const factory of targets()) {
  describe(`hostile concurrency [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let author: DocflowClient;

    before(async () => {
      target = await factory.start();
      const { service } = await setUpClientSystem(target.baseUrl, target.adminKey, {
        persons: ['author@example.com', 'bob@example.com'],
        form: 'race',
        approver: 'bob@example.com',
      });
      author = service.as('author@example.com');
    });
    after(() => target?.stop());

    it(`${MOVES.length} management moves sent at once with one If-Match: one 200, the rest 412 (${TRIALS} trials)`, async () => {
      for (let trial = 1; trial <= TRIALS; trial++) {
        const doc = await author.createDocument('race', {
          docForm: { valuesByTags: { subject: `trial ${trial}` } },
          docResponse: { taskstatus: 100 },
        });
        const read = await author.api.GET('/api/v2/docForm/{id}', { params: { path: { id: doc._id } } });
        const etag = read.response.headers.get('etag')!;
        const outcomes = await Promise.allSettled(
          MOVES.map((taskstatus) =>
            author.api.POST('/api/v2/docForm/{id}/docResponse', {
              params: { path: { id: doc._id }, header: { 'If-Match': etag } },
              body: { docResponse: { taskstatus } },
            }),
          ),
        );
        const statuses = outcomes.map((o) => {
          if (o.status === 'fulfilled') return o.value.response.status;
          assert.ok(o.reason instanceof DocflowProblem, String(o.reason));
          return o.reason.status;
        });
        const succeeded = statuses.filter((s) => s >= 200 && s < 300);
        assert.equal(succeeded.length, 1, `trial ${trial}: exactly one acts (${statuses.join(', ')})`);
        assert.deepEqual(
          statuses.filter((s) => s === 412).length,
          MOVES.length - 1,
          `trial ${trial}: every other one is 412 (${statuses.join(', ')})`,
        );
        const winner = outcomes.find((o) => o.status === 'fulfilled')!.value.data!;
        const now = await author.api.GET('/api/v2/docForm/{id}', { params: { path: { id: doc._id } } });
        assert.equal(now.data!._meta!._rev, winner._meta!._rev, 'the refused moves recorded nothing');
        assert.equal(now.data!.status, winner.status);
      }
    });
  });
}
