/**
 * Creates are all-or-nothing for files (issue 29, finding 4 and the concurrent-duplicate item of
 * finding 11): a create refused at any point keeps no attachment and no blob, and `allowDupl=false`
 * is one atomic claim, so of concurrent creates with the same file exactly one wins.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createDoc, type UploadFile } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

/** The multipart limit of one JSON part (services/document/src/documents/multipart.ts). */
const JSON_PART_MAX_BYTES = 1024 * 1024;
/** A string value's limit is 100,000 characters, so the part is filled by this many values. */
const NOTES = 11;
const FILES = 100;
const CONCURRENT_CREATES = 6;
const TRIALS = 5;

const form = {
  name: 'hostilecreate',
  title: 'Hostile create',
  formsystype: 1,
  tags: Object.fromEntries(Array.from({ length: NOTES }, (_, i) => [`note${i}`, 'string'])),
};

/** Values that make the docForm part just under its limit of JSON_PART_MAX_BYTES. */
function nearlyFullValues(): Record<string, string> {
  const each = Math.floor((JSON_PART_MAX_BYTES - 1000) / NOTES) - 20;
  return Object.fromEntries(Array.from({ length: NOTES }, (_, i) => [`note${i}`, 'x'.repeat(each)]));
}

/** `count` files of distinct random content, each named with 240 characters. */
function longNamedFiles(count: number): UploadFile[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `${String(i).padStart(3, '0')}${'n'.repeat(233)}.bin`,
    content: randomBytes(64),
  }));
}

for (const factory of targets()) {
  describe(`hostile creates [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let api: Api;
    /** A service account holding no role at all: what any client has. */
    let anyKey: string;
    const create = (parts: Parameters<typeof createDoc>[3], query = '?allowDupl=false') =>
      createDoc(target.baseUrl, anyKey, form.name, parts, { query });

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      const svc = await api('POST', '/api/admin/v1/accounts', {
        key: target.adminKey,
        body: { kind: 'service', email: 'creator@example.com', name_first: 'C', name_last: 'R', roles: [] },
      });
      assert.equal(svc.status, 201, svc.text);
      anyKey = svc.body.apiKey;
      const put = await api('PUT', `/api/admin/v1/forms/${form.name}`, { key: target.adminKey, body: form });
      assert.equal(put.status, 201, put.text);
    });
    after(() => target?.stop());

    it('413 when DocumentCreated would exceed the event limit keeps no file: the same content is accepted again with allowDupl=false', async () => {
      const files = longNamedFiles(FILES);
      // The part fits its own limit; with the hundred file entries the event does not fit its own.
      const blobsBefore = await target.blobCount();
      const refused = await create({ docForm: { valuesByTags: nearlyFullValues() }, files });
      assert.equal(refused.status, 413, refused.text);
      assert.match(refused.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.equal(await target.blobCount(), blobsBefore, 'no blob of the refused create is left');

      const again = await create({ docForm: { valuesByTags: { note0: 'small' } }, files });
      assert.equal(again.status, 201, again.text);
      assert.equal(again.body.filesList.length, FILES);
      assert.equal(await target.blobCount(), blobsBefore + FILES);
    });

    it('concurrent creates of one file with allowDupl=false: exactly one 201, the rest 409, no blob of theirs left', async () => {
      for (let trial = 1; trial <= TRIALS; trial++) {
        const file = { name: `same-${trial}.bin`, content: randomBytes(4096) };
        const blobsBefore = await target.blobCount();
        const answers = await Promise.all(
          Array.from({ length: CONCURRENT_CREATES }, () => create({ files: [file] })),
        );
        const statuses = answers.map((a) => a.status).sort();
        assert.deepEqual(
          statuses,
          [201, ...Array<number>(CONCURRENT_CREATES - 1).fill(409)],
          `trial ${trial}: ${answers.map((a) => a.text.slice(0, 200)).join(' | ')}`,
        );
        assert.equal(await target.blobCount(), blobsBefore + 1, `trial ${trial}: one blob, the winner's`);
        const winner = answers.find((a) => a.status === 201)!;
        const download = await fetch(
          `${target.baseUrl}/api/v2/docForm/${winner.body._id}/file/${winner.body.filesList[0].id}`,
          { headers: { authorization: `Bearer ${anyKey}` } },
        );
        assert.equal(download.status, 200);
        assert.deepEqual(Buffer.from(await download.arrayBuffer()), file.content);
      }
    });
  });
}
