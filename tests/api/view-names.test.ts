/**
 * A view's page names the people its documents name (issue 33: authors and participants by name in
 * every list), over real HTTP, embedded and distributed: `embed=names` gives each listed document the
 * names of its author and assignees as identity names them now — an erased person as `[erased]` —
 * and only those of its own; without it the list is as before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDoc, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { type Target, targets } from '../support/targets';

const FORM = {
  name: 'memo-listed',
  title: 'Memo listed',
  formsystype: 1,
  tags: { subject: 'string' },
  titleField: 'subject',
  workflow: { approval: { stages: [{ participants: ['bob@example.com', 'erin@example.com'] }] } },
};

for (const factory of targets()) {
  describe(`view lists with names [${factory.name}]`, { skip: factory.skip, timeout: 300_000 }, () => {
    let target: Target;
    let api: Api;
    let admin: string;
    const ids: Record<string, string> = {};
    const docs: Record<string, string> = {};

    type Listed = { _id: string; author: string; names?: Record<string, string> };
    const listed = async (path: string, runAs?: string) => {
      const res = await api<Listed[]>('GET', path, { key: admin, ...(runAs ? { runAs } : {}) });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };

    before(async () => {
      target = await factory.start();
      api = apiClient(target.baseUrl);
      admin = target.adminKey;
      for (const name of ['alice', 'bob', 'carol', 'erin']) {
        const res = await api('POST', '/api/admin/v1/accounts', {
          key: admin,
          body: {
            kind: 'person',
            email: `${name}@example.com`,
            name_first: name[0]!.toUpperCase() + name.slice(1),
            name_last: 'Example',
          },
        });
        assert.equal(res.status, 201, res.text);
        ids[name] = res.body._id_sys;
      }
      const form = await api('PUT', `/api/admin/v1/forms/${FORM.name}`, { key: admin, body: FORM });
      assert.equal(form.status, 201, form.text);
      for (const [author, start] of [
        ['alice', true],
        ['carol', false],
      ] as const) {
        const created = await createDoc(
          target.baseUrl,
          admin,
          FORM.name,
          {
            docForm: { valuesByTags: { subject: `By ${author}` } },
            ...(start ? { docResponse: { taskstatus: 100 } } : {}),
          },
          { runAs: ids[author] },
        );
        assert.equal(created.status, 201, created.text);
        assert.equal(created.headers.get('x-error') ?? '', '');
        docs[author] = created.body._id;
      }
    });
    after(() => target?.stop());

    it('embed=names names each listed document’s author and assignees, and only its own', async () => {
      const page = await eventually(
        () => listed(`/api/v2/docForm/view/all?embed=names&form=${FORM.name}`),
        (page) => page.length === 2,
      );
      const byId = new Map(page.map((doc) => [doc._id, doc.names]));
      assert.deepEqual(byId.get(docs.alice!), {
        [ids.alice!]: 'Alice Example',
        [ids.bob!]: 'Bob Example',
        [ids.erin!]: 'Erin Example',
      });
      assert.deepEqual(byId.get(docs.carol!), { [ids.carol!]: 'Carol Example' });
    });

    it('an inbox names them too, and a list without embed=names carries no names', async () => {
      const inbox = await eventually(
        () => listed('/api/v2/docForm/view/inbox?embed=names', ids.bob),
        (page) => page.length === 1,
      );
      assert.equal(inbox[0]?._id, docs.alice);
      assert.equal(inbox[0]?.names?.[ids.alice!], 'Alice Example');
      const plain = await listed(`/api/v2/docForm/view/all?form=${FORM.name}`);
      assert.equal(plain.length, 2);
      for (const doc of plain) assert.equal('names' in doc, false);
    });

    it('an erased person is "[erased]" in every list that names her', async () => {
      const erased = await api('POST', `/api/admin/v1/accounts/${ids.erin}/erase`, { key: admin });
      assert.equal(erased.status, 200, erased.text);
      const page = await listed(`/api/v2/docForm/view/all?embed=names&form=${FORM.name}`);
      const alices = page.find((doc) => doc._id === docs.alice);
      assert.equal(alices?.names?.[ids.erin!], '[erased]');
      assert.equal(alices?.names?.[ids.bob!], 'Bob Example');
    });

    it('embed takes names only: another entity is 400', async () => {
      const res = await api('GET', '/api/v2/docForm/view/all?embed=docResponse', { key: admin });
      assert.equal(res.status, 400, res.text);
    });
  });
}
