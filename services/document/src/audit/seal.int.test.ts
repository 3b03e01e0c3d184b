/** The document service's store seals every `docForm-` append into its chain, whoever appends. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { verifyChain } from '@docflow/audit';
import { createSqliteEventStore, type NewEvent } from '@docflow/eventstore';
import { chainedEvent, sealingEventStore } from './seal';

const event = (type: string): NewEvent => ({
  id: randomUUID(),
  type,
  version: 1,
  data: { note: type },
  metadata: { correlationId: 'c', actor: 'usr-a', timestamp: new Date().toISOString() },
});

describe('the sealing event store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-seal-'));
  const raw = createSqliteEventStore({ file: join(dir, 'events.db') });
  const store = sealingEventStore(raw);
  after(async () => {
    await raw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('chains events appended without a seal, one by one and several at once', async () => {
    await store.append('docForm-1', [event('A')], 0);
    await store.append('docForm-1', [event('B'), event('C')], 1);
    await store.append('docForm-1', [event('D')], 3);
    const stored = await raw.readStream('docForm-1');
    const verdict = verifyChain(stored.map(chainedEvent));
    assert.equal(verdict.valid, true, JSON.stringify(verdict));
    assert.equal(stored.length, 4);
  });

  it('leaves the other streams as they are', async () => {
    await store.append('forms-1', [event('A')], 0);
    const [stored] = await raw.readStream('forms-1');
    assert.equal(stored?.metadata.hash, undefined);
  });
});
