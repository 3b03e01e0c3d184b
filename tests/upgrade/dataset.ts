/**
 * A broad data set written through the public API, as a client of the previous release writes it:
 * documents in every workflow state (draft, pending, approved with corrected values, signed, rejected,
 * answered by a deputy, suspended, cancelled, restarted, executed and archived, blocked, deleted),
 * table values, attachments, a recognised text PDF validated by hand, a create whose workflow could
 * not start (X-Error), a refused create, an idempotent create sent twice, a form redefined, a person's
 * fields and password changed, roles given, an account deactivated, a deputy, a webhook and its
 * deliveries, and an erased person. Then the reads that show all of it.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { textPdf } from '@docflow/recognition';
import { type CreateParts, createDoc, createPerson, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import type { WebhookReceiver } from '../support/webhook-receiver';
import type { Read } from './reads';

const PERSONS = ['alice', 'bob', 'carol', 'dave', 'ghost', 'erin', 'frank'] as const;
type Person = (typeof PERSONS)[number];
const WEBHOOK_TYPES = [
  'document.created',
  'document.state_changed',
  'task.opened',
  'task.answered',
  'recognition.done',
];
/** Bounds the waits for what follows a write asynchronously (views, recognition, webhooks). */
const SETTLE_MS = 90_000;

export const FORM = {
  name: 'upg',
  title: 'Upgrade test',
  formsystype: 9,
  tags: { subject: 'string', lines: 'table' },
  workflow: {
    approval: { stages: [{ participants: ['bob@example.com'] }], next: 'sign' },
    sign: { stages: [{ participants: ['carol@example.com'] }] },
    execution: { stages: [{ participants: ['dave@example.com'] }], next: 'archive' },
    dueDays: 3,
  },
};
/** Its approver is an address nobody holds: starting its workflow fails (201 with X-Error). */
const ORPHAN_FORM = {
  name: 'upg-orphan',
  title: 'Approver unknown',
  formsystype: 9,
  tags: { subject: 'string' },
  workflow: { approval: { stages: [{ participants: ['nobody@example.com'] }] } },
};
/** A text PDF the sample form `invoice` recognises; `zephyrine` is a word only its text holds. */
export const INVOICE_PDF = textPdf([
  [
    { text: 'INVOICE', size: 28 },
    { text: 'Zephyrine Supplies Ltd' },
    { text: 'Invoice No. INV-UPG-0042' },
    { text: 'Total: 317.25' },
  ],
]);

/** The documents of the data set by name, in the order they are written. */
export const DOCUMENTS = [
  'draft',
  'pending',
  'approved',
  'in-sign',
  'rejected',
  'restarted',
  'suspended',
  'cancelled',
  'archived',
  'blocked',
  'deleted',
  'by-deputy',
  'orphan',
  'idempotent',
  'invoice',
  'by-erin',
  'last',
] as const;
/** What the reads are about besides the documents: one comparison each. */
export const OTHER_SUBJECTS = ['accounts', 'forms', 'views', 'search', 'webhooks'] as const;

export interface Dataset {
  adminKey: string;
  portalKey: string;
  /** `usr-` ids by person. */
  ids: Record<Person, string>;
  /** `_id` of each document by its name in the data set. */
  docs: Record<string, string>;
  webhookId: string;
  /** The idempotent create: its key, what was sent, and the `_id` it made. */
  idempotent: { key: string; parts: CreateParts; id: string };
}

/** Writes the data set; resolves once everything asynchronous about it has settled. */
export async function writeDataset(
  baseUrl: string,
  adminKey: string,
  receiver: WebhookReceiver,
): Promise<Dataset> {
  const api = apiClient(baseUrl);
  const admin = { key: adminKey };
  const ids = {} as Record<Person, string>;
  for (const person of PERSONS) ids[person] = await createPerson(api, adminKey, `${person}@example.com`);
  const portal = await api('POST', '/api/admin/v1/accounts', {
    ...admin,
    body: { kind: 'service', email: 'portal@example.com', name_first: 'Portal', name_last: 'Client' },
  });
  assert.equal(portal.status, 201, portal.text);
  const portalKey: string = portal.body.apiKey;
  for (const form of [FORM, ORPHAN_FORM])
    assert.equal(
      (await api('PUT', `/api/admin/v1/forms/${form.name}`, { ...admin, body: form })).status,
      201,
    );
  const hook = await api('POST', '/api/admin/v1/webhooks', {
    ...admin,
    body: { url: receiver.url, eventTypes: WEBHOOK_TYPES },
  });
  assert.equal(hook.status, 201, hook.text);
  receiver.secret = hook.body.secret;

  const as = (person: Person) => ({ key: portalKey, runAs: ids[person] });
  const docs: Record<string, string> = {};
  async function create(name: string, parts: CreateParts, by: Person = 'alice', form = FORM.name) {
    const res = await createDoc(baseUrl, portalKey, form, parts, { runAs: ids[by] });
    assert.equal(res.status, 201, `${name}: ${res.text}`);
    docs[name] = res.body._id;
    return res;
  }
  const subject = (text: string, tags: string[] = ['upgrade']) => ({
    docForm: { valuesByTags: { subject: text }, _tags: tags },
  });
  const started = (text: string, tags?: string[]) => ({
    ...subject(text, tags),
    docResponse: { taskstatus: 100 },
  });
  async function manage(name: string, taskstatus: number, by: Person = 'alice') {
    const res = await api('POST', `/api/v2/docForm/${docs[name]}/docResponse`, {
      ...as(by),
      body: { docResponse: { taskstatus } },
    });
    assert.equal(res.status, 200, `${name} ${taskstatus}: ${res.text}`);
  }
  /** `assignee`'s open task on `name` (read as `by`: the assignee, or their enabled deputy), answered. */
  async function answer(
    name: string,
    taskstatus: number,
    assignee: Person,
    by: Person = assignee,
    extra: Record<string, unknown> = {},
  ) {
    const read = await api('GET', `/api/v2/docForm/${docs[name]}?embed=docResponse`, as(by));
    assert.equal(read.body?.docResponse?.assignee, ids[assignee], `${name}: ${by} sees ${assignee}'s task`);
    const res = await api(
      'PUT',
      `/api/v2/docForm/${docs[name]}/docResponse/${read.body.docResponse.respId}`,
      {
        ...as(by),
        body: { docResponse: { taskstatus, content: `${by} answers ${taskstatus}` }, ...extra },
      },
    );
    assert.equal(res.status, 200, `${name} ${taskstatus} by ${by}: ${res.text}`);
  }

  await create('draft', {
    docForm: {
      valuesByTags: {
        subject: 'Harbour crane inspection',
        lines: [
          ['rent', '1200'],
          ['power', '80'],
        ],
      },
      _tags: ['upgrade', 'draft'],
    },
    files: [
      { name: 'plan.txt', content: 'Budget 2027: plan\n', type: 'text/plain' },
      { name: 'scan.bin', content: randomBytes(4096) },
    ],
  });
  await create('pending', started('Waiting for bob'));
  await create('approved', started('Approved, then signed'));
  // bob approves with remarks and corrects the values in the same step (DocumentFieldsUpdated).
  await answer('approved', 3, 'bob', 'bob', {
    docForm: { valuesByTags: { subject: 'Approved with edits' }, _tags: ['upgrade', 'reviewed'] },
  });
  await answer('approved', 8, 'carol');
  await create('in-sign', started('Approved, sign open'));
  await answer('in-sign', 2, 'bob');
  await create('rejected', started('Declined by bob'));
  await answer('rejected', 4, 'bob');
  await create('restarted', started('Declined, then restarted'));
  await answer('restarted', 4, 'bob');
  await manage('restarted', 104);
  await create('suspended', started('Suspended'));
  await manage('suspended', 101);
  await create('cancelled', started('Cancelled'));
  await manage('cancelled', 103);
  await create('archived', subject('Executed, archived, then in the repository'));
  await manage('archived', 106);
  await answer('archived', 5, 'dave');
  await manage('archived', 108);
  await create('blocked', started('Blocked'));
  await manage('blocked', 110);
  await create('deleted', { ...subject('Deleted'), files: [{ name: 'gone.txt', content: 'deleted doc\n' }] });
  await manage('deleted', 111);

  // A form redefined after documents were made from it; a person's own fields and password changed;
  // roles given; an account deactivated.
  const redefined = await api('PUT', `/api/admin/v1/forms/${FORM.name}`, {
    ...admin,
    body: { ...FORM, title: 'Upgrade test, second version', tags: { ...FORM.tags, note: 'string' } },
  });
  assert.equal(redefined.status, 200, redefined.text);
  const updated = await api('POST', '/api/v2/person', {
    ...admin,
    body: {
      _id_sys: ids.carol,
      pwd: 'carol-upgrade-2026',
      phone_office: '+49 30 1234',
      unit: 'Signing desk',
    },
  });
  assert.equal(updated.status, 200, updated.text);
  for (const [person, change] of [
    ['dave', { roles: ['svcAuditR'] }],
    ['frank', { active: false }],
  ] as const) {
    const patched = await api('PATCH', `/api/admin/v1/accounts/${ids[person]}`, { ...admin, body: change });
    assert.equal(patched.status, 200, patched.text);
  }

  // ghost stands in for bob: the document service learns it from identity's events.
  const deputy = await api('POST', '/api/v2/person', {
    ...admin,
    body: { _id_sys: ids.bob, deputy: { id: ids.ghost, enabled: 'true' } },
  });
  assert.equal(deputy.status, 200, deputy.text);
  await create('by-deputy', started('Approved by a deputy'));
  await eventually(
    () => api('GET', `/api/v2/docForm/${docs['by-deputy']}?embed=docResponse`, as('ghost')),
    (r) => r.body?.docResponse?.assignee === ids.bob,
    SETTLE_MS,
  );
  await answer('by-deputy', 2, 'bob', 'ghost');

  const orphan = await create('orphan', started('Nobody approves'), 'alice', ORPHAN_FORM.name);
  assert.ok(orphan.headers.get('x-error'), 'the workflow of upg-orphan cannot start');
  const refused = await createDoc(
    baseUrl,
    portalKey,
    FORM.name,
    { docForm: { valuesByTags: { nosuch: 'x' } } },
    {
      runAs: ids.alice,
    },
  );
  assert.equal(refused.status, 400, refused.text);

  const idempotencyKey = `upgrade-${randomBytes(8).toString('hex')}`;
  const idempotentParts = subject('Sent twice');
  const sent = [];
  for (let attempt = 0; attempt < 2; attempt++)
    sent.push(
      await createDoc(baseUrl, portalKey, FORM.name, idempotentParts, {
        runAs: ids.alice,
        headers: { 'idempotency-key': idempotencyKey },
      }),
    );
  assert.equal(sent[1]!.headers.get('idempotent-replayed'), 'true', sent[1]!.text);
  assert.equal(sent[1]!.body._id, sent[0]!.body._id);
  docs.idempotent = sent[0]!.body._id;

  await create(
    'invoice',
    { docForm: {}, files: [{ name: 'invoice.pdf', content: INVOICE_PDF, type: 'application/pdf' }] },
    'alice',
    'invoice',
  );
  const recognized = await eventually(
    () => api('GET', `/api/v2/docForm/${docs.invoice}?embed=recoData`, as('alice')),
    (r) => r.body.recoStatus !== 'pending',
    SETTLE_MS,
  );
  assert.equal(recognized.body.recoStatus, 'done', recognized.text);
  const validated = await api(
    'PUT',
    `/api/v2/docForm/${docs.invoice}/recoData/${recognized.body.recoData[0]._id}`,
    {
      ...as('alice'),
      body: { valuesByTags: { invoiceNo: 'INV-UPG-0042-A', total: '317.25' } },
    },
  );
  assert.equal(validated.status, 200, validated.text);

  // erin authors a document, then she is erased.
  await create(
    'by-erin',
    { ...subject('Written by erin'), files: [{ name: 'erin.txt', content: 'erin\n' }] },
    'erin',
  );
  const erased = await api('POST', `/api/admin/v1/accounts/${ids.erin}/erase`, admin);
  assert.equal(erased.status, 200, erased.text);

  // Last: once its document.created is delivered, so is every delivery before it.
  await create('last', subject('The last write'));
  const webhookId: string = hook.body.id;
  await settleWebhooks(api, adminKey, webhookId, receiver, docs.last!);
  await eventually(
    () => api('GET', '/api/v2/docForm/view/all?q=crane', admin),
    (r) => r.body.length === 1,
    SETTLE_MS,
  );
  assert.deepEqual(Object.keys(docs), [...DOCUMENTS]);
  return {
    adminKey,
    portalKey,
    ids,
    docs,
    webhookId,
    idempotent: { key: idempotencyKey, parts: idempotentParts, id: sent[0]!.body._id },
  };
}

/** Resolves once `lastDoc`'s document.created arrived and the delivery log shows every delivery done. */
async function settleWebhooks(
  api: Api,
  adminKey: string,
  webhookId: string,
  receiver: WebhookReceiver,
  lastDoc: string,
) {
  await eventually(
    async () => receiver.received.some((d) => d.payload.data.documentId === lastDoc),
    Boolean,
    SETTLE_MS,
  );
  const log = await eventually(
    () => api('GET', `/api/admin/v1/webhooks/${webhookId}/deliveries?pageSize=1000`, { key: adminKey }),
    (r) => r.body.length > 0 && r.body.every((d: { status: string }) => d.status === 'delivered'),
    SETTLE_MS,
  );
  assert.ok(
    log.body.every((d: { status: string }) => d.status === 'delivered'),
    log.text,
  );
  assert.ok(
    receiver.received.every((d) => d.verified),
    'every delivery is signed with the secret',
  );
}

/** Every read of the data set, as `baseUrl` shows it now (a document's revisions, its files, ...). */
export async function readsOf(baseUrl: string, data: Dataset): Promise<Read[]> {
  const api = apiClient(baseUrl);
  const admin = data.adminKey;
  const reads: Read[] = [];
  const portal = (subject: string, path: string, person: Person, listing = false) =>
    reads.push({ subject, path, key: data.portalKey, runAs: data.ids[person], listing });

  for (const [name, id] of Object.entries(data.docs)) {
    const subject = `document ${name}`;
    const doc = (await api('GET', `/api/v2/docForm/${id}`, { key: admin })).body;
    const base = `/api/v2/docForm/${id}`;
    reads.push({ subject, path: `${base}?embed=docResponse,recoResult`, key: admin });
    reads.push({ subject, path: base, key: admin });
    if (doc._id_web) reads.push({ subject, path: `/api/v2/docForm/${doc._id_web}`, key: admin });
    for (const person of ['alice', 'bob', 'ghost'] as const)
      portal(subject, `${base}?embed=docResponse`, person);
    for (let rev = 1; rev <= (doc._meta?._rev ?? 0); rev++)
      reads.push({ subject, path: `${base}?rev=${rev}&embed=recoResult`, key: admin });
    if (doc._meta?._created)
      reads.push({ subject, path: `${base}?asOf=${encodeURIComponent(doc._meta._created)}`, key: admin });
    reads.push({ subject, path: `${base}/history`, key: admin });
    reads.push({ subject, path: `${base}/history?first=1&pageSize=2`, key: admin });
    reads.push({ subject, path: `${base}/history`, key: admin, accept: 'application/x-ndjson' });
    reads.push({ subject, path: `${base}/verify`, key: admin });
    reads.push({ subject, path: `${base}/export`, key: admin });
    for (const file of doc.filesList ?? [])
      reads.push({ subject, path: `${base}/file/${file.id}`, key: admin });
  }

  const accounts = await api('GET', '/api/admin/v1/accounts?pageSize=100', { key: admin });
  reads.push({ subject: 'accounts', path: '/api/admin/v1/accounts?pageSize=100', key: admin });
  reads.push({ subject: 'accounts', path: '/api/admin/v1/accounts?kind=person&active=true', key: admin });
  for (const account of accounts.body as Array<{ _id_sys: string }>) {
    reads.push({ subject: 'accounts', path: `/api/admin/v1/accounts/${account._id_sys}`, key: admin });
    for (const version of ['v1', 'v2'])
      reads.push({ subject: 'accounts', path: `/api/${version}/person/${account._id_sys}`, key: admin });
  }
  portal('accounts', `/api/v2/person/${data.ids.alice}`, 'alice');
  portal('accounts', `/api/v2/person/${data.ids.erin}`, 'erin'); // erased: run-as refused

  for (const form of [FORM.name, ORPHAN_FORM.name, 'memo', 'invoice'])
    reads.push({ subject: 'forms', path: `/api/admin/v1/forms/${form}`, key: admin });

  const views = [
    'all?pageSize=100',
    'all?first=2&pageSize=3',
    'all?tags=upgrade&pageSize=100',
    'all?status=5',
    'all?state=1',
    'all?form=invoice',
    'mydocs?pageSize=100',
    'inbox',
  ];
  for (const view of views)
    reads.push({ subject: 'views', path: `/api/v2/docForm/view/${view}`, key: admin, listing: true });
  portal('views', '/api/v2/docForm/view/mydocs?pageSize=100', 'alice', true);
  for (const person of ['bob', 'carol', 'dave', 'ghost'] as const)
    portal('views', '/api/v2/docForm/view/inbox', person, true);
  for (const q of ['crane', 'CRANE harb', 'zephyrine', 'plan', 'upgrade', 'INV-UPG-0042'])
    reads.push({
      subject: 'search',
      path: `/api/v2/docForm/view/all?pageSize=100&q=${encodeURIComponent(q)}`,
      key: admin,
      listing: true,
    });

  reads.push({ subject: 'webhooks', path: '/api/admin/v1/webhooks', key: admin });
  reads.push({ subject: 'webhooks', path: `/api/admin/v1/webhooks/${data.webhookId}`, key: admin });
  reads.push({
    subject: 'webhooks',
    path: `/api/admin/v1/webhooks/${data.webhookId}/deliveries?pageSize=1000`,
    key: admin,
  });
  return reads;
}
