/**
 * The bus consumer of the document topic: maps each document event to webhook events and writes an
 * outbox row per matching subscription, in one transaction with the handled-message mark, durable
 * before the handler returns (and so before the bus offset is committed). A crash loses nothing: the
 * message comes again, or its rows are already there.
 */
import type { MessageHandler } from '@docflow/bus';
import { EventEnvelope } from '@docflow/contracts';
import type { Logger } from '@docflow/kit';
import { ProblemError } from '@docflow/kit/http';
import { decideFanOut } from './businessLogic';
import type { FactsAt } from './document-position';
import { mapDocumentEvent } from './event-mapping';
import type { Outbox, SubscriptionStore } from './webhooks-store';

const DOC_STREAM = 'docForm-';

export interface DocumentConsumerDeps {
  /** Where a document not in `facts` stood at a revision (the document service's answer). */
  factsAt: FactsAt;
  subscriptions: SubscriptionStore;
  outbox: Outbox;
  /** Called after rows were added: the delivery worker looks for due rows. */
  enqueued: () => void;
  log: Logger;
}

export function documentEventsHandler(deps: DocumentConsumerDeps): MessageHandler {
  /** Where the document stood before `envelope`; the document service not knowing it is said aloud. */
  async function factsBefore(envelope: EventEnvelope, documentId: string) {
    const revision = envelope.revision - 1;
    try {
      return await deps.factsAt(documentId, revision);
    } catch (error) {
      // The event fails like any failing handler's and goes to the dead-letter topic: never unseen.
      if (error instanceof ProblemError && error.status === 404) {
        deps.log.warn(
          { eventId: envelope.id, documentId, revision },
          'webhooks: the document service does not know this document at the revision before the event',
        );
      }
      throw error;
    }
  }

  return async function handleDocumentEvent(message) {
    const envelope = EventEnvelope.parse(message.value);
    if (!envelope.streamId.startsWith(DOC_STREAM)) return;
    const documentId = envelope.streamId.slice(DOC_STREAM.length);
    // A document's events come one at a time (one bus partition), so its facts read here stay current.
    // One not remembered (its row lost, or older than this service) starts where its stream stood just
    // before this event; only its first event starts from nothing. While the document service is away
    // the bus calls this again, without dead-lettering (DependencyUnavailable).
    const known =
      (await deps.outbox.facts(documentId)) ??
      (envelope.revision > 1 ? await factsBefore(envelope, documentId) : undefined);
    const mapped = mapDocumentEvent(envelope, known);
    if (!mapped) return;
    const rows = decideFanOut(mapped.events, await deps.subscriptions.list());
    await deps.outbox.enqueueOnce(envelope.id, documentId, mapped.facts, rows, Date.now());
    if (rows.length === 0) return;
    deps.enqueued();
  };
}
