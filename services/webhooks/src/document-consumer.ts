/**
 * The bus consumer of the document topic: maps each document event to webhook events and writes an
 * outbox row per matching subscription, in one transaction with the handled-message mark, durable
 * before the handler returns (and so before the bus offset is committed). A crash loses nothing: the
 * message comes again, or its rows are already there.
 */
import type { MessageHandler } from '@docflow/bus';
import { EventEnvelope } from '@docflow/contracts';
import { applyOnceDurably, type LocalDb } from '@docflow/kit/eventsourcing';
import type { DocumentFactsStore } from './document-facts';
import { mapDocumentEvent } from './event-mapping';
import type { Outbox } from './outbox';
import type { SubscriptionStore } from './subscriptions';

const CONSUMER = 'webhooks-outbox';
const DOC_STREAM = 'docForm-';

export interface DocumentConsumerDeps {
  db: LocalDb;
  facts: DocumentFactsStore;
  subscriptions: SubscriptionStore;
  outbox: Outbox;
  /** Called after rows were added: the delivery worker looks for due rows. */
  enqueued: () => void;
}

export function documentEventsHandler(deps: DocumentConsumerDeps): MessageHandler {
  return async function handleDocumentEvent(message) {
    const envelope = EventEnvelope.parse(message.value);
    if (!envelope.streamId.startsWith(DOC_STREAM)) return;
    const documentId = envelope.streamId.slice(DOC_STREAM.length);
    let rows = 0;
    await applyOnceDurably(deps.db, CONSUMER, envelope.id, () => {
      const mapped = mapDocumentEvent(envelope, deps.facts.get(documentId));
      if (!mapped) return;
      deps.facts.put(documentId, mapped.facts);
      if (mapped.events.length === 0) return;
      const subscriptions = deps.subscriptions.list();
      const now = Date.now();
      for (const event of mapped.events)
        for (const subscription of subscriptions)
          if (subscription.eventTypes.includes(event.type)) {
            deps.outbox.enqueue(subscription.id, event, now);
            rows++;
          }
    });
    if (rows > 0) deps.enqueued();
  };
}
