/** Several files instances on one bus: each must learn every document's attachments. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createInProcessBus } from '@docflow/bus';
import { topicsOf } from '@docflow/contracts';
import { newHexId } from '@docflow/kit';
import { createAttachmentIndex } from './attachment-index';
import { documentCreated, NAMESPACE, startHarness } from './test-harness';

describe('two files instances on one bus', () => {
  const bus = createInProcessBus();
  after(() => bus.close());

  it('each keeps the whole attachment index, so neither sweeps a file the other was told is attached', async () => {
    const a = await startHarness({ bus, instanceId: 'a' });
    const b = await startHarness({ bus, instanceId: 'b' });
    try {
      // Sixteen documents: keys that one shared group would split between the two members.
      const events = Array.from({ length: 16 }, () =>
        documentCreated(newHexId(), [{ id: newHexId(), sha256: 'e'.repeat(64) }]),
      );
      const published = await bus.publish(
        topicsOf(NAMESPACE).document,
        events.map((e) => ({ id: e.id, key: String(e.data.id), value: e })),
      );
      // Durable on the in-process bus: every group has handled the events.
      await published.durable;
      for (const [name, h] of [
        ['a', a],
        ['b', b],
      ] as const) {
        const index = createAttachmentIndex(h.db);
        const known = events.filter((e) =>
          index.isFileAttached(String((e.data.files as { id: string }[])[0]!.id)),
        );
        assert.equal(known.length, events.length, `instance ${name} knows every attached file`);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });
});
