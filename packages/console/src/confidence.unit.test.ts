import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { confidenceLevel, needsChecking, reviewThreshold, UNSURE_BELOW } from './web/confidence';

describe('the review marks of recognised values', () => {
  it('a level per confidence and threshold: sure from the threshold up, unsure below UNSURE_BELOW', () => {
    const cases: [number | undefined, number, string][] = [
      [100, 90, 'sure'],
      [90, 90, 'sure'],
      [89.9, 90, 'check'],
      [70, 80, 'check'],
      [UNSURE_BELOW, 80, 'check'],
      [UNSURE_BELOW - 0.1, 80, 'unsure'],
      [0, 80, 'unsure'],
      [40, 30, 'sure'],
      [undefined, 80, 'unsure'],
      [undefined, 0, 'unsure'],
    ];
    for (const [confidence, threshold, level] of cases)
      assert.equal(confidenceLevel(confidence, threshold), level, `${confidence} at ${threshold}`);
  });

  it('what needs checking: the values below the threshold, least sure first, one without a confidence first of all', () => {
    const values = { supplier: 'ACME', invoiceNo: 'INV-1', total: '99.00', currency: 'EUR', iban: '' };
    const fields = {
      supplier: { confidence: 60 },
      invoiceNo: { confidence: 100 },
      total: { confidence: 45 },
      currency: { confidence: 80 },
    };
    assert.deepEqual(needsChecking(values, fields, 80), ['iban', 'total', 'supplier']);
    assert.deepEqual(needsChecking(values, fields, 0), ['iban']);
  });

  it('nothing on a part recognised before per-field confidences', () => {
    assert.deepEqual(needsChecking({ total: '99.00' }, undefined, 90), []);
  });

  it('the threshold of a part: the one recognition judged it by, else the console\u2019s default', () => {
    assert.deepEqual(reviewThreshold(75), { at: 75, from: 'form' });
    assert.deepEqual(reviewThreshold(0), { at: 0, from: 'form' });
    assert.deepEqual(reviewThreshold(undefined), { at: 90, from: 'default' });
  });
});
