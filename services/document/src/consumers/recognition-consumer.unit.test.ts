/**
 * What a recognition result records in a document (decideRecognitionResult): a backfilled text
 * (FileTextRecognized) only for an attachment recognised without text, once; it joins the searched
 * text and changes nothing a client reads.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toDocForm } from '../documents/representation';
import { created, doc, FILE, recognized } from '../documents/test-fixtures';
import { decideRecognitionResult } from './recognition-consumer';

const text = { type: 'FileTextRecognized' as const, data: { fileId: FILE.id, text: 'Invoice INV-1' } };

describe('decideRecognitionResult', () => {
  it('records the text of an attachment recognised without it, as RecognitionTextRecorded', () => {
    const before = doc(created(), recognized);
    assert.deepEqual(before.recoTextMissing, [FILE.id]);
    const events = decideRecognitionResult(before, text, 'text-1');
    assert.deepEqual(events, [
      {
        type: 'RecognitionTextRecorded',
        data: { fileId: FILE.id, text: 'Invoice INV-1', sourceId: 'text-1' },
      },
    ]);
    const after = doc(created(), recognized, ...events);
    assert.deepEqual(after.recoText, ['Invoice INV-1']);
    assert.deepEqual(after.recoTextMissing, []);
    assert.deepEqual(
      toDocForm({ ...after, rev: before.rev }),
      toDocForm(before),
      'nothing a client reads changes',
    );
    assert.deepEqual(decideRecognitionResult(after, text, 'text-2'), [], 'a second text is not recorded');
  });

  it('records no text for an attachment recognised with it, nor for one not recognised yet', () => {
    const withText = { ...recognized, data: { ...recognized.data, text: 'kept' } } as typeof recognized;
    assert.deepEqual(decideRecognitionResult(doc(created(), withText), text, 'text-1'), []);
    assert.deepEqual(decideRecognitionResult(doc(created()), text, 'text-1'), []);
  });
});
