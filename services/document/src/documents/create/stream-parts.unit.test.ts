import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { StoredFile } from '@docflow/contracts';
import { ProblemError, problems } from '@docflow/kit/http';
import type { IncomingFile } from '../multipart';
import { streamParts } from './stream-parts';

const MAX_BYTES = 1024 * 1024;

/** A create request's multipart body: the JSON parts as text, and the files. */
function createRequest(docForm: string, files: Array<[name: string, text: string]>): Request {
  const body = new FormData();
  body.append('docForm', docForm);
  for (const [name, text] of files) body.append('files', new Blob([text], { type: 'text/plain' }), name);
  return new Request('http://document/api/v2/docForm/form/memo', { method: 'POST', body });
}

/** Stores each file by reading it whole (as the files service does), or refuses the one named `refused`. */
function filesStore(refused?: string) {
  const stored: string[] = [];
  return {
    stored,
    async store(file: IncomingFile): Promise<StoredFile> {
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of file.stream) {
        hash.update(chunk as Buffer);
        size += (chunk as Buffer).length;
      }
      if (file.fileName === refused) throw problems.conflict('a live document holds this content');
      stored.push(file.fileName);
      const id = `f11e${String(stored.length).padStart(20, '0')}`;
      return { id, fileName: file.fileName, size, sha256: hash.digest('hex'), contentType: file.contentType };
    },
  };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('create step: stream the parts', () => {
  it('each file stored as it arrives, in order, with what identifies it for the fingerprint', async () => {
    const files = filesStore();
    const request = createRequest('{"valuesByTags":{}}', [
      ['a.txt', 'alpha'],
      ['b.txt', 'beta'],
    ]);
    const { parts, identities } = await streamParts(request, files, MAX_BYTES);
    assert.equal(parts.docForm, '{"valuesByTags":{}}');
    assert.deepEqual(files.stored, ['a.txt', 'b.txt']);
    assert.deepEqual(
      parts.files.map((f) => [f.fileName, f.size]),
      [
        ['a.txt', 5],
        ['b.txt', 4],
      ],
    );
    assert.deepEqual(identities, [
      { fileName: 'a.txt', contentType: 'text/plain', sha256: sha256('alpha') },
      { fileName: 'b.txt', contentType: 'text/plain', sha256: sha256('beta') },
    ]);
  });

  it('a file refused: the create refused with its problem, the files stored before it known', async () => {
    const files = filesStore('b.txt');
    const request = createRequest('{}', [
      ['a.txt', 'alpha'],
      ['b.txt', 'beta'],
    ]);
    await assert.rejects(
      streamParts(request, files, MAX_BYTES),
      (err) => err instanceof ProblemError && err.status === 409,
    );
    assert.deepEqual(files.stored, ['a.txt']);
  });
});
