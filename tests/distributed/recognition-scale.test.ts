/**
 * Two recognition processes share the OCR work through one Kafka consumer group: every attachment is
 * recognised exactly once, whichever instance took it; and when the one doing a multi-page job is
 * SIGKILLed in the middle of it, the job (in that instance's own durable queue, acknowledged on the
 * bus) is done once after its restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { drawPage, drawPageEncoded, imagePdf } from '@docflow/recognition';
import { createDoc, eventually } from '../support/documents';
import { apiClient } from '../support/http';
import { type DistributedTarget, distributedSkipReason, startDistributed } from '../support/targets';

const DOCUMENTS = 12;
const PAGES = 8;
const INSTANCES = ['recognition', 'recognition-2'];

/** Pages a process has OCRed so far, from its own `/metrics`. */
async function pagesDone(url: string): Promise<number> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text());
  return [...text.matchAll(/^docflow_ocr_pages_total(?:\{[^}]*\})? (\d+)/gm)].reduce(
    (n, m) => n + Number(m[1]),
    0,
  );
}

describe('distributed: two recognition instances', {
  skip: distributedSkipReason(),
  timeout: 400_000,
}, () => {
  let target: DistributedTarget;
  before(async () => {
    target = await startDistributed({ recognitionInstances: 2 });
  });
  after(() => target?.stop());

  it('share the work: each attachment recognised once, by one of them', async () => {
    const png = await drawPageEncoded(
      [{ text: 'INVOICE', size: 28 }, { text: 'Invoice No. INV-7' }, { text: 'Total: 70.00' }],
      'png',
    );
    const ids: string[] = [];
    for (let i = 0; i < DOCUMENTS; i++) {
      const res = await createDoc(target.baseUrl, target.adminKey, 'invoice', {
        files: [{ name: `invoice-${i}.png`, content: png, type: 'image/png' }],
      });
      assert.equal(res.status, 201, res.text);
      ids.push(res.body._id);
    }
    const api = apiClient(target.baseUrl);
    for (const id of ids) {
      const doc = await eventually(
        () => api('GET', `/api/v2/docForm/${id}?embed=recoData`, { key: target.adminKey }),
        (r) => r.body.recoStatus !== 'pending',
        180_000,
      );
      assert.equal(doc.body.recoStatus, 'done', id);
      assert.equal(doc.body.recoData.length, 1, id);
      const history = await api('GET', `/api/v2/docForm/${id}/history`, { key: target.adminKey });
      assert.equal(history.body.filter((e: any) => e.type === 'RecognitionRecorded').length, 1, id);
    }
    const handled = (name: string) =>
      (target.procs[name]!.output().match(/"msg":"file recognized"/g) ?? []).length;
    const counts = { recognition: handled('recognition'), 'recognition-2': handled('recognition-2') };
    console.log(`# recognition work split over two instances: ${JSON.stringify(counts)}`);
    assert.equal(counts.recognition + counts['recognition-2'], DOCUMENTS, 'each attachment recognised once');
  });

  it('a process SIGKILLed in the middle of a multi-page job: the job is done once, after its restart', async () => {
    const invoice = drawPage([
      { text: 'INVOICE', size: 28 },
      { text: 'Invoice No. INV-9' },
      { text: 'Total: 90.00' },
    ]);
    const urls = target.processUrls();
    const before: Record<string, number> = {};
    for (const name of INSTANCES) before[name] = await pagesDone(urls[name]!);
    const pdf = imagePdf(Array.from({ length: PAGES }, () => invoice));
    const res = await createDoc(target.baseUrl, target.adminKey, 'invoice', {
      files: [{ name: 'invoices.pdf', content: pdf, type: 'application/pdf' }],
    });
    assert.equal(res.status, 201, res.text);
    const id: string = res.body._id;

    // The instance that took the job: the first whose page count moves; killed after its first page.
    let busy: string | undefined;
    for (let i = 0; i < 1200 && !busy; i++) {
      for (const name of INSTANCES) if ((await pagesDone(urls[name]!)) > before[name]!) busy = name;
      if (!busy) await sleep(100);
    }
    assert.ok(busy, 'one instance started the job');
    const pagesBeforeKill = (await pagesDone(urls[busy]!)) - before[busy]!;
    assert.ok(pagesBeforeKill < PAGES, `killed mid-job (after ${pagesBeforeKill} of ${PAGES} pages)`);
    const killedAt = performance.now();
    const killed = target.procs[busy]!;
    await target.restart('recognition', { kill: true, name: busy });
    const restarted = target.procs[busy]!;

    const api = apiClient(target.baseUrl);
    const doc = await eventually(
      () => api('GET', `/api/v2/docForm/${id}?embed=recoData`, { key: target.adminKey }),
      (r) => r.body.recoStatus !== 'pending',
      240_000,
    );
    const doneAfter = ((performance.now() - killedAt) / 1000).toFixed(1);
    console.log(
      `# fault recognition killed after ${pagesBeforeKill} of ${PAGES} pages: job done by the restarted ${busy} ${doneAfter} s after the SIGKILL`,
    );
    assert.equal(doc.body.recoStatus, 'done', doc.text);
    const history = await api('GET', `/api/v2/docForm/${id}/history`, { key: target.adminKey });
    assert.equal(history.body.filter((e: any) => e.type === 'RecognitionRecorded').length, 1, 'one result');
    const pages = doc.body.recoData.reduce(
      (n: number, part: any) => n + (part.pageIdxEnd - part.pageIdxStart + 1),
      0,
    );
    assert.equal(pages, PAGES, `every page recognised: ${JSON.stringify(doc.body.recoData)}`);
    const recorded = (output: string) =>
      output.split('\n').filter((l) => l.includes('"msg":"file recognized"') && l.includes(id)).length;
    assert.equal(recorded(killed.output()), 0, 'the killed process recorded nothing');
    assert.equal(recorded(restarted.output()), 1, 'the restarted process did the job once');
    assert.ok(
      (await pagesDone(target.processUrls()[busy]!)) >= PAGES,
      'the restarted process OCRed every page',
    );
  });
});
