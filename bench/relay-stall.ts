/**
 * Relay stall under a slow recognition job (issue 29, finding 2), embedded mode: a scan of
 * STALL_PAGES image pages is being recognised while a plain document (no recognition) is created
 * every CREATE_EVERY_MS for STALL_DURATION_S, each watched by a webhook; `/metrics` is read every
 * SCRAPE_MS. Prints the longest time the document relay's backlog stayed above zero, its largest
 * value, and the slowest create → webhook delivery. Bounded by the duration.
 *
 *   pnpm exec tsx bench/relay-stall.ts
 */
import { drawPage, imagePdf } from '@docflow/recognition';
import { createDoc } from '../tests/support/documents';
import { startEmbedded } from '../tests/support/targets';
import { startWebhookReceiver } from '../tests/support/webhook-receiver';
import { fixed, loadNote } from './support';

const PAGES = Number(process.env.STALL_PAGES ?? 60);
const DURATION_S = Number(process.env.STALL_DURATION_S ?? 60);
const CREATE_EVERY_MS = 500;
const SCRAPE_MS = 100;
const BACKLOG = /^docflow_relay_backlog_events\{service="document"\} (\d+)/m;
const INVOICE = [
  { text: 'INVOICE', size: 28 },
  { text: 'ACME GmbH, Hauptstrasse 1, 10115 Berlin' },
  { text: 'Invoice No. INV-2026-001' },
  { text: 'Total: 1,234.50' },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const note = loadNote();
const receiver = await startWebhookReceiver();
const target = await startEmbedded({
  env: { DOCFLOW_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
});
try {
  const auth = { authorization: `Bearer ${target.adminKey}`, 'content-type': 'application/json' };
  const hook = await fetch(`${target.baseUrl}/api/admin/v1/webhooks`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ url: receiver.url, eventTypes: ['document.created'] }),
  });
  if (hook.status !== 201) throw new Error(`webhook: ${hook.status}`);
  receiver.secret = ((await hook.json()) as { secret: string }).secret;
  const page = drawPage(INVOICE);
  const scan = imagePdf(Array.from({ length: PAGES }, () => page));
  const slow = await createDoc(target.baseUrl, target.adminKey, 'invoice', {
    docForm: {},
    files: [{ name: 'scan.pdf', content: scan, type: 'application/pdf' }],
  });
  if (slow.status !== 201) throw new Error(`slow document: ${slow.status}`);

  const createdAt = new Map<string, number>();
  // First seen by a scrape: the receiver keeps no arrival times.
  const deliveredAt = new Map<string, number>();
  const end = performance.now() + DURATION_S * 1000;
  let longestStallMs = 0;
  let stallSince: number | undefined;
  let largestBacklog = 0;
  const scraping = (async () => {
    while (performance.now() < end) {
      const text = await (await fetch(`${target.baseUrl}/metrics`)).text();
      const backlog = Number(BACKLOG.exec(text)?.[1] ?? 0);
      const now = performance.now();
      for (const d of receiver.received)
        if (!deliveredAt.has(d.payload.data.documentId)) deliveredAt.set(d.payload.data.documentId, now);
      largestBacklog = Math.max(largestBacklog, backlog);
      if (backlog > 0) stallSince ??= now;
      else stallSince = undefined;
      if (stallSince !== undefined) longestStallMs = Math.max(longestStallMs, now - stallSince);
      await sleep(SCRAPE_MS);
    }
  })();
  while (performance.now() < end) {
    const res = await createDoc(target.baseUrl, target.adminKey, 'invoice', { docForm: {} });
    if (res.status !== 201) throw new Error(`create: ${res.status}`);
    createdAt.set(res.body._id, performance.now());
    await sleep(CREATE_EVERY_MS);
  }
  await scraping;
  const latencies = [...createdAt].map(([id, at]) => (deliveredAt.get(id) ?? performance.now()) - at);
  const undelivered = [...createdAt.keys()].filter((id) => !deliveredAt.has(id)).length;
  const scanRead = await fetch(`${target.baseUrl}/api/v2/docForm/${slow.body._id}`, { headers: auth });
  const scanStatus = (await scanRead.json()) as { recoStatus: string };
  console.log(`relay stall, embedded, a ${PAGES}-page scan in recognition, ${note}`);
  console.log(
    `documents created: ${createdAt.size} in ${DURATION_S} s; scan recoStatus at the end: ${scanStatus.recoStatus}`,
  );
  console.log(
    `document relay backlog: longest above zero ${fixed(longestStallMs / 1000)} s, largest ${largestBacklog}`,
  );
  console.log(
    `create → webhook: slowest ${fixed(Math.max(...latencies) / 1000)} s, ${undelivered} not delivered by the end`,
  );
} finally {
  await target.stop();
  await receiver.close();
}
