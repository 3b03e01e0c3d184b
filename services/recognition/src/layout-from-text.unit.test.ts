import assert from 'node:assert/strict';
import { it } from 'node:test';
import { PageLayout } from '@docflow/contracts';
import { layoutFromText } from './layout-from-text';

it('layoutFromText: a line per text line, words at their character positions, a valid PageLayout', () => {
  const layout = layoutFromText('Invoice No.   42\n\nTotal         9.00', 3, 'ocr', 87);
  assert.equal(PageLayout.safeParse(layout).success, true);
  assert.equal(layout.pageIdx, 3);
  assert.equal(layout.source, 'ocr');
  assert.deepEqual(
    layout.lines.map((l) => l.words.map((w) => w.text)),
    [
      ['Invoice', 'No.', '42'],
      ['Total', '9.00'],
    ],
  );
  const [, , value] = layout.lines[0]!.words;
  const [, under] = layout.lines[1]!.words;
  assert.equal(value!.box[0], under!.box[0], 'aligned by spaces: same left edge');
  assert.ok(layout.lines[1]!.box[1] > layout.lines[0]!.box[3], 'the empty line keeps its place');
  assert.equal(value!.confidence, 87);
});

it('layoutFromText: an empty text is a page without lines', () => {
  assert.deepEqual(layoutFromText('', 0).lines, []);
});
