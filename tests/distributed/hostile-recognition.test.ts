/**
 * Hostile attachments in distributed mode (issue 29, findings 1 and 3; the build's "recognition off the
 * event loop, in both modes"): the recognition service reads files in its own process, so there the
 * worst hostile file of each kind must leave its `/healthz` (and the gateway's) answering within 2 s,
 * and end `failed` with its reason; an ordinary scan is recognised after them. The files are generated
 * here, never committed (tests/api/hostile-recognition*.test.ts: the same files, embedded).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertOrdinaryScanRecognised,
  assertRecognitionFailed,
  HOSTILE_FILES,
} from '../support/hostile-recognition';
import { recogniseWhileProbing } from '../support/recognition-probe';
import { type DistributedTarget, distributedSkipReason, startDistributed } from '../support/targets';

const HOSTILE = [
  HOSTILE_FILES.deepPageTree,
  HOSTILE_FILES.hugePages16,
  HOSTILE_FILES.pngBomb8Bit,
  HOSTILE_FILES.imageBomb,
  HOSTILE_FILES.softMaskBomb,
  HOSTILE_FILES.softMaskBombIndirect,
];

describe('distributed: hostile recognition', { skip: distributedSkipReason(), timeout: 900_000 }, () => {
  let target: DistributedTarget;
  /** The gateway and the recognition service. */
  let probed: string[];

  before(async () => {
    target = await startDistributed();
    const urls = target.processUrls();
    probed = [target.baseUrl, urls.recognition!];
    assert.ok(urls.recognition, Object.keys(urls).join(', '));
  });
  after(() => target?.stop());

  for (const hostile of HOSTILE)
    it(`${hostile.name}: recognition fails '${hostile.reasons.join("' or '")}'; the gateway's and the recognition service's /healthz answer within 2 s throughout`, async () => {
      const content = await hostile.file();
      const recognised = await recogniseWhileProbing(target, hostile.fileName, content, hostile.type, probed);
      assertRecognitionFailed(recognised, hostile.reasons, hostile.detail);
    });

  it('an ordinary scan after them is recognised', () => assertOrdinaryScanRecognised(target, 'png', probed));
});
