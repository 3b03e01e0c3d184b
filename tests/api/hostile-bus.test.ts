/**
 * Issue 29, finding 2 (embedded mode): one slow recognition job held back every document's events,
 * because the in-process bus's publish waited for every consumer group and recognition worked inside
 * its consumer. The slow job here is a legitimate file, a scan of many image pages (OCR of each); a
 * document created after it gets its webhook delivery and its recognition while that job still runs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drawPage, imagePdf, textPdf } from '@docflow/recognition';
import { createDoc, eventually } from '../support/documents';
import { type Api, apiClient } from '../support/http';
import { startEmbedded, type Target } from '../support/targets';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'ACME GmbH, Hauptstrasse 1, 10115 Berlin' },
  { text: 'Invoice No. INV-2026-001' },
  { text: 'Total: 1,234.50' },
];
/** Pages of the slow scan: each one is OCRed (about a second on this machine's cores). */
const SLOW_SCAN_PAGES = 60;
const WAIT_MS = 120_000;

describe('a slow recognition job holds back no other document [embedded]', { timeout: 600_000 }, () => {
  let target: Target;
  let api: Api;
  let receiver: WebhookReceiver;

  before(async () => {
    receiver = await startWebhookReceiver();
    target = await startEmbedded({ env: { DOCFLOW_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } });
    api = apiClient(target.baseUrl);
    const hook = await api('POST', '/api/admin/v1/webhooks', {
      key: target.adminKey,
      body: { url: receiver.url, eventTypes: ['document.created'] },
    });
    assert.equal(hook.status, 201, hook.text);
    receiver.secret = hook.body.secret;
  });
  after(async () => {
    await target?.stop();
    await receiver?.close();
  });

  const create = async (name: string, content: Uint8Array) => {
    const res = await createDoc(target.baseUrl, target.adminKey, 'invoice', {
      docForm: {},
      files: [{ name, content, type: 'application/pdf' }],
    });
    assert.equal(res.status, 201, res.text);
    return res.body._id as string;
  };
  const read = (id: string) => api('GET', `/api/v2/docForm/${id}?embed=recoData`, { key: target.adminKey });

  it('another document gets its webhook and its recognition while the slow job runs', async () => {
    const page = drawPage(INVOICE);
    const slow = await create('scan.pdf', imagePdf(Array.from({ length: SLOW_SCAN_PAGES }, () => page)));
    const other = await create('invoice.pdf', textPdf([INVOICE]));

    const delivered = () => receiver.received.some((d) => d.payload.data.documentId === other);
    const otherDoc = await eventually(
      () => read(other),
      (res) => res.body.recoStatus !== 'pending' && delivered(),
      WAIT_MS,
    );
    const slowDoc = await read(slow);
    assert.ok(delivered(), 'the other document’s webhook was delivered');
    assert.equal(otherDoc.body.recoStatus, 'done', JSON.stringify(otherDoc.body));
    assert.equal(otherDoc.body.recoData[0].valuesByTags.invoiceNo, 'INV-2026-001');
    assert.equal(slowDoc.body.recoStatus, 'pending', 'the other document waited for the slow job to end');
    const metrics = await (await fetch(`${target.baseUrl}/metrics`)).text();
    assert.match(metrics, /^docflow_recognition_jobs\{state="running"\} 1$/m, 'the slow job is in hand');
    assert.match(metrics, /^docflow_recognition_jobs\{state="waiting"\} 0$/m, 'nothing waits behind it');
  });
});
