import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedEvent } from '@docflow/eventstore';
import { openLocalDb } from '@docflow/kit/eventsourcing';
import { createStoredFilesTable } from './stored-files';

const BLOB_E = 'e'.repeat(64);
const BLOB_F = 'f'.repeat(64);
let position = 0;

function recorded(type: string, data: Record<string, unknown>, recordedAt: number): RecordedEvent {
  position++;
  return {
    id: `event-${position}`,
    type,
    version: 1,
    data,
    metadata: { correlationId: 'c', timestamp: new Date(recordedAt).toISOString() },
    streamId: `file-${String(data.id)}`,
    revision: type === 'FileStored' ? 1 : 2,
    position: String(position).padStart(16, '0'),
    recordedAt: new Date(recordedAt).toISOString(),
  };
}
const fileStored = (id: string, blobKey: string, at: number) =>
  recorded(
    'FileStored',
    { id, fileName: 'a', size: 1, sha256: blobKey, contentType: 'text/plain', blobKey },
    at,
  );
const fileDiscarded = (id: string, at: number) => recorded('FileDiscarded', { id, reason: 'rejected' }, at);
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
const [A, B, C] = ['a', 'b', 'c'].map((c) => c.repeat(24)) as [string, string, string];

describe('stored files table', () => {
  it('lists unattached files by the end of their upload, page after page, from the horizon on', () => {
    const table = createStoredFilesTable(openLocalDb(':memory:'));
    const first = fileStored(A, BLOB_E, 1_000);
    table.apply(first);
    table.apply(fileStored(B, BLOB_E, 2_000));
    table.apply(fileStored(C, BLOB_F, 3_000));
    assert.deepEqual(table.unattached(10_000, 10), [], 'nothing before the horizon is set');
    table.setHorizonOnce(first.position);
    table.setHorizonOnce('');
    assert.equal(table.horizon(), first.position, 'set once');
    assert.deepEqual(ids(table.unattached(10_000, 10)), [B, C], 'A is at the horizon');
    assert.deepEqual(ids(table.unattached(2_000, 10)), [B], 'ended by 2000');
    const [page1] = table.unattached(10_000, 1);
    assert.deepEqual(ids(table.unattached(10_000, 1, page1)), [C]);
  });

  it('counts the files that hold a blob until each is discarded', () => {
    const table = createStoredFilesTable(openLocalDb(':memory:'));
    table.apply(fileStored(A, BLOB_E, 1_000));
    table.apply(fileStored(B, BLOB_E, 1_000));
    table.markAttached(B);
    table.apply(fileDiscarded(A, 2_000));
    assert.equal(table.hasLiveFile(BLOB_E), true, 'B, attached, still holds it');
    assert.equal(table.hasLiveFile(BLOB_F), false);
    assert.deepEqual(ids(table.awaitingRelease(10)), [A]);
  });

  it('only moves a file forward: events applied again change nothing', () => {
    const table = createStoredFilesTable(openLocalDb(':memory:'));
    table.setHorizonOnce('');
    const stored = fileStored(A, BLOB_E, 1_000);
    const discarded = fileDiscarded(A, 2_000);
    table.apply(stored);
    table.apply(discarded);
    table.markReleased(A);
    table.apply(stored);
    table.apply(discarded);
    table.markAttached(A);
    assert.deepEqual(table.awaitingRelease(10), []);
    assert.deepEqual(table.unattached(10_000, 10), []);
    assert.equal(table.hasLiveFile(BLOB_E), false);

    table.apply(fileStored(B, BLOB_F, 1_000));
    table.markAttached(B);
    table.apply(fileStored(B, BLOB_F, 1_000));
    assert.deepEqual(table.unattached(10_000, 10), [], 'attached is final');
  });
});
