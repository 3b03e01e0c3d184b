/**
 * Two recognition processes share the OCR work through one Kafka consumer group: every attachment is
 * recognised exactly once, whichever instance took it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drawPageEncoded } from '@docflow/recognition';
import { createDoc, eventually } from '../support/documents';
import { apiClient } from '../support/http';
import { type DistributedTarget, distributedSkipReason, startDistributed } from '../support/targets';

const DOCUMENTS = 12;

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
});
