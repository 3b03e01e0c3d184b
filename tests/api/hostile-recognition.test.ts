/**
 * Hostile attachments on an embedded instance (issue 29, findings 1 and 3): a PDF with a page tree
 * 400,000 levels deep, small PDFs of blank 200 × 200-inch pages, PNG decompression bombs. Each one's
 * recognition ends `failed` with its reason, `/healthz` answers within 2 s all the while, and an
 * ordinary document is recognised after them. The files are generated here, never committed.
 */
import { after, before, describe, it } from 'node:test';
import {
  assertOrdinaryScanRecognised,
  assertRecognitionFailed,
  HOSTILE_FILES,
} from '../support/hostile-recognition';
import { recogniseWhileProbing } from '../support/recognition-probe';
import { startEmbedded, type Target } from '../support/targets';

const HOSTILE = [
  HOSTILE_FILES.deepPageTree,
  HOSTILE_FILES.hugePages16,
  HOSTILE_FILES.hugePages200,
  HOSTILE_FILES.pngBomb1Bit,
  HOSTILE_FILES.pngBomb8Bit,
];

describe('hostile recognition [embedded]', { timeout: 1_200_000 }, () => {
  let target: Target;

  before(async () => {
    target = await startEmbedded();
  });
  after(() => target?.stop());

  for (const hostile of HOSTILE)
    it(`${hostile.name}: recognition fails '${hostile.reasons.join("' or '")}'; /healthz answers within 2 s throughout`, async () => {
      // Generated before probing: building the 42 MB file holds this test's own event loop.
      const content = await hostile.file();
      const recognised = await recogniseWhileProbing(target, hostile.fileName, content, hostile.type);
      assertRecognitionFailed(recognised, hostile.reasons, hostile.detail);
    });

  it('an ordinary scan after them is recognised', () => assertOrdinaryScanRecognised(target, 'png'));
});
