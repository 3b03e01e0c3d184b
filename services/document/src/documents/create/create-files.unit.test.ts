import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { rejections, type StoredFile } from '@docflow/contracts';
import { AppendTooLarge, StoreUnavailable, WrongExpectedRevision } from '@docflow/eventstore';
import { createLogger } from '@docflow/kit';
import { forCaller, internalClient, problems, type ServiceClient } from '@docflow/kit/http';
import { appendWroteNothing, createFiles } from './create-files';

const DOC_ID = 'd0c000000000000000000001';
const upload = (fileName: string) => ({
  fileName,
  contentType: 'text/plain',
  stream: Readable.from([Buffer.from('x')]),
});

/**
 * The files service as the create sees it, answering each call as `status` says and recording what
 * was asked, in order.
 */
function filesPeer(status: (method: string, path: string) => number = () => 0) {
  const asked: string[] = [];
  let next = 0;
  const files: ServiceClient = {
    send: async ({ method, path, body }) => {
      asked.push(`${method} ${path.replace(/\?.*/, '')}`);
      if (body instanceof ReadableStream) await new Response(body).arrayBuffer();
      const forced = status(method, path);
      if (forced) return Response.json({ status: forced, title: 'refused' }, { status: forced });
      if (method !== 'POST' || !path.startsWith('/internal/v1/files'))
        return new Response(null, { status: 204 });
      const stored: StoredFile = {
        id: `f11e${String(++next).padStart(20, '0')}`,
        fileName: 'a.txt',
        size: 1,
        sha256: 'e'.repeat(64),
        contentType: 'text/plain',
      };
      return Response.json(stored, { status: 201 });
    },
  };
  const principal = { account: 'usr-1', subject: 'usr-1', roles: [] };
  const ids = { requestId: 'r', correlationId: 'c' };
  return { asked, call: forCaller(internalClient(files, 'token'), { principal, ids }) };
}

describe('the files of one create', () => {
  const log = createLogger('document-test', 'silent');

  it('given up before its claim: each stored file discarded, no release asked', async () => {
    const peer = filesPeer();
    const files = createFiles(peer.call, DOC_ID, false, log);
    await files.store(upload('a.txt'));
    await files.store(upload('b.txt'));
    await files.giveUp();
    assert.deepEqual(peer.asked, [
      'POST /internal/v1/files',
      'POST /internal/v1/files',
      'DELETE /internal/v1/files/f11e00000000000000000001',
      'DELETE /internal/v1/files/f11e00000000000000000002',
    ]);
  });

  it('given up after its claim (the append refused): the claim released first, then the files discarded', async () => {
    const peer = filesPeer();
    const files = createFiles(peer.call, DOC_ID, false, log);
    const stored = await files.store(upload('a.txt'));
    await files.claim([stored]);
    await files.giveUp();
    assert.deepEqual(peer.asked.slice(1), [
      'POST /internal/v1/attachments',
      `DELETE /internal/v1/attachments/${DOC_ID}`,
      `DELETE /internal/v1/files/${stored.id}`,
    ]);
  });

  it('releases a claim that was refused or lost too (it may have been recorded), and keeps the files when the release fails', async () => {
    const lost = filesPeer((method, path) => (method === 'POST' && path.includes('attachments') ? 503 : 0));
    const files = createFiles(lost.call, DOC_ID, false, log);
    const stored = await files.store(upload('a.txt'));
    await assert.rejects(files.claim([stored]));
    await files.giveUp();
    assert.deepEqual(lost.asked.slice(2), [
      `DELETE /internal/v1/attachments/${DOC_ID}`,
      `DELETE /internal/v1/files/${stored.id}`,
    ]);

    const stuck = filesPeer((method, path) =>
      method === 'DELETE' && path.includes('attachments') ? 503 : 0,
    );
    const kept = createFiles(stuck.call, DOC_ID, false, log);
    await kept.claim([await kept.store(upload('a.txt'))]);
    await kept.giveUp();
    assert.equal(
      stuck.asked.at(-1),
      `DELETE /internal/v1/attachments/${DOC_ID}`,
      'no discard of attached files',
    );
  });
});

const absent = async () => false;
const present = async () => true;
const unreadable = async (): Promise<boolean> => {
  throw new StoreUnavailable('timed out');
};

describe('whether a failed append of DocumentCreated wrote nothing', () => {
  it('is certain for a refusal (below 500) when the stream holds no document', async () => {
    for (const err of [
      rejections.invalid('bad value'),
      new AppendTooLarge('docForm-1', 1_048_576, 2_000_000),
      new WrongExpectedRevision('docForm-1', 0, 1),
      problems.conflict('taken'),
    ])
      assert.equal(await appendWroteNothing(err, absent), true, String(err));
  });

  it('is not when the document is there after all, or cannot be read', async () => {
    const conflict = rejections.conflict('document exists already');
    assert.equal(await appendWroteNothing(conflict, present), false);
    assert.equal(await appendWroteNothing(conflict, unreadable), false);
  });

  it('is not for a store that did not answer, nor an unknown error, whatever a read says', async () => {
    assert.equal(await appendWroteNothing(new StoreUnavailable('timed out'), absent), false);
    assert.equal(await appendWroteNothing(new Error('socket hang up'), absent), false);
  });
});
