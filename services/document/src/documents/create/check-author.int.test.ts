import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Rejection } from '@docflow/contracts';
import { ProblemError } from '@docflow/kit/http';
import { AUTHOR, BOB, CAROL } from '../test-fixtures';
import { checkAuthor } from './check-author';
import { context, peer, TOKEN } from './test-givens';

/** Identity's resolve as the create asks it: BOB has an account, nobody else but the caller. */
const identity = () =>
  peer(async (request) => {
    const { refs } = (await request.json()) as { refs: string[] };
    const known = refs.filter((ref) => ref === BOB);
    return Response.json({
      accounts: Object.fromEntries(
        known.map((id) => [id, { id, kind: 'person', active: true, deputy: null }]),
      ),
    });
  });

describe('create step: check the author (identity over the in-process client)', () => {
  it('none named, or the caller named: the caller, identity not asked', async () => {
    const { asked, client } = identity();
    const calls = { identity: client, internalToken: TOKEN };
    assert.equal(await checkAuthor(calls, context(), undefined), AUTHOR);
    assert.equal(await checkAuthor(calls, context(), AUTHOR), AUTHOR);
    assert.equal(asked.length, 0);
  });

  it('another account named without svcAdminDocsRW: forbidden, identity not asked', async () => {
    const { asked, client } = identity();
    await assert.rejects(
      checkAuthor({ identity: client, internalToken: TOKEN }, context(), BOB),
      (err) => err instanceof Rejection && err.kind === 'forbidden',
    );
    assert.equal(asked.length, 0);
  });

  it('with svcAdminDocsRW: an account identity knows is the author; one it does not know is 400', async () => {
    const { asked, client } = identity();
    const calls = { identity: client, internalToken: TOKEN };
    assert.equal(await checkAuthor(calls, context('svcAdminDocsRW'), BOB), BOB);
    await assert.rejects(
      checkAuthor(calls, context('svcAdminDocsRW'), CAROL),
      (err) =>
        err instanceof ProblemError && err.status === 400 && err.errors?.[0]?.pointer === 'docForm.author',
    );
    assert.equal(asked.length, 2);
  });
});
