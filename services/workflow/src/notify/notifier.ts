/**
 * E-mail notifications (issue 36): follows the workflow streams and e-mails the people a fact concerns
 * (messages.ts). Addresses are asked of identity at send time and used only for the SMTP call: never
 * in an event, a log line or the bus, so an erased (or opted-out) person gets nothing. The document's
 * title is asked of the document service at send time too, so the mail names it as it is called now.
 *
 * Once per fact: after a fact's mails are sent, `NotificationsSent` with the fact's event id and store
 * position is appended to the notifier's own stream (`notifier-workflow`, never relayed), and a start
 * resumes after the newest one; the first start ever begins at the store's head (no mail for history).
 * A crash between the SMTP answer and that append would send that fact again; the Message-ID, keyed
 * by the fact's event id and the recipient, lets the mail client show it once. On a store several
 * processes share, only the holder of the `workflow-notifier` lease sends.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  documentTitleRoute,
  notificationRecipientsRoute,
  parseWorkflowEvent,
  type WorkflowEvent,
  workflowStream,
} from '@docflow/contracts';
import type { EventStore, RecordedEvent, ServiceLease, Subscription } from '@docflow/eventstore';
import type { Logger } from '@docflow/kit';
import { loadAggregate, recordEvents, whileLeased } from '@docflow/kit/eventsourcing';
import { internalClient, type Principal, ProblemError, type ServiceClient } from '@docflow/kit/http';
import type { WorkflowState } from '@docflow/workflow-model';
import { workflowAggregate } from '../aggregate';
import type { Mailer } from './mailer';
import { NOTIFIED_EVENTS, type NotifiedDocument, notificationOf, recipientsOf } from './messages';

const NOTIFIER_LEASE = 'workflow-notifier';
export const NOTIFIER_STREAM = 'notifier-workflow';
const WORKFLOW_PRINCIPAL: Principal = { account: 'workflow', subject: 'workflow', roles: [] };

export interface NotifierOptions {
  store: EventStore;
  lease?: ServiceLease;
  identity: ServiceClient;
  /** Asked for the document's title. */
  document: ServiceClient;
  internalToken: string;
  mailer: Mailer;
  /** Where people reach docflow (DOCFLOW_PUBLIC_URL): the mails link to the document under it. */
  publicUrl?: string;
  log: Logger;
}

export function startNotifier(options: NotifierOptions): Subscription {
  const { lease, log } = options;
  if (!lease) return notifierWork(options);
  return whileLeased({
    lease,
    name: NOTIFIER_LEASE,
    log,
    start: () => ({ ...notifierWork(options), position: () => undefined }),
  });
}

/** Where the notifier resumes: after the newest fact it handled, or (first start) the store's head. */
async function resumePosition(store: EventStore): Promise<string | undefined> {
  const last = (await store.readStream(NOTIFIER_STREAM)).at(-1);
  if (last) return String(last.data.position ?? '') || undefined;
  const head = await store.headPosition({ streamPrefixes: [workflowStream('')] });
  await record(store, 'NotifierStarted', { position: head ?? '' });
  return head;
}

async function record(store: EventStore, type: string, data: Record<string, unknown>): Promise<void> {
  const metadata = { correlationId: randomUUID(), actor: 'workflow', timestamp: new Date().toISOString() };
  await recordEvents(store, NOTIFIER_STREAM, [{ type, data }], metadata);
}

function notifierWork(options: NotifierOptions): Subscription {
  const { store, internalToken, mailer, publicUrl, log } = options;
  const client = internalClient(options.identity, internalToken);
  const documents = internalClient(options.document, internalToken);
  const callContext = () => ({
    principal: WORKFLOW_PRINCIPAL,
    ids: { requestId: randomUUID(), correlationId: randomUUID() },
  });

  /** The document as the mail names it; no title once the document service knows it no more (404). */
  async function documentOf(docId: string): Promise<NotifiedDocument> {
    try {
      const { title } = await documents.call(documentTitleRoute, { params: { docId } }, callContext());
      return { title, publicUrl };
    } catch (error) {
      if (error instanceof ProblemError && error.status === 404) return { publicUrl };
      throw error; // the document service is away: the fact is tried again
    }
  }

  /** Mails the people `fact` concerns who are still reached; the ids it was sent to. */
  async function mail(event: RecordedEvent, fact: WorkflowEvent, state: WorkflowState): Promise<string[]> {
    const to = recipientsOf(fact, state) ?? [];
    if (!to.length) return [];
    const { recipients } = await client.call(
      notificationRecipientsRoute,
      { body: { ids: to } },
      callContext(),
    );
    // Nobody left (erased, deactivated, opted out): the document's title is not asked for.
    if (!to.some((id) => recipients[id])) return [];
    const notification = notificationOf(fact, state, await documentOf(state.docId));
    if (!notification) return [];
    const sentTo: string[] = [];
    for (const id of to) {
      const recipient = recipients[id];
      if (!recipient) continue; // erased, deactivated, opted out
      const sent = await mailer.send({
        to: { name: recipient.name, address: recipient.email },
        subject: notification.subject,
        text: notification.text,
        messageId: `<${event.id}.${id}@docflow>`,
      });
      if (sent) sentTo.push(id);
      else log.warn({ eventId: event.id, recipient: id }, 'e-mail notification refused by the SMTP server');
    }
    return sentTo;
  }

  async function notify(event: RecordedEvent): Promise<void> {
    if (!NOTIFIED_EVENTS.has(event.type)) return;
    const fact: WorkflowEvent = parseWorkflowEvent(event.type, event.data);
    const { state } = await loadAggregate(store, event.streamId, workflowAggregate);
    const sentTo = await mail(event, fact, state);
    await record(store, 'NotificationsSent', {
      eventId: event.id,
      type: event.type,
      position: event.position,
      to: sentTo,
    });
    log.info({ eventId: event.id, type: event.type, recipients: sentTo.length }, 'e-mail notifications sent');
  }

  let subscription: Subscription | undefined;
  const stopping = new AbortController();
  const started = untilStarted(() => resumePosition(store), stopping.signal, log).then((after) => {
    if (stopping.signal.aborted) return;
    subscription = store.subscribeAll(
      {
        after,
        streamPrefixes: [workflowStream('')],
        onHandlerError: (error, event, attempt) =>
          // The error may quote the address: its code only.
          log.warn(
            { code: errorCode(error), eventId: event.id, attempt },
            'e-mail notification failed; retried',
          ),
      },
      notify,
    );
  });

  return {
    async stop() {
      stopping.abort();
      await started;
      await subscription?.stop();
      mailer.close();
    },
  };
}

const errorCode = (error: unknown) =>
  (error as { code?: unknown; responseCode?: unknown })?.responseCode ??
  (error as { code?: unknown })?.code ??
  'unknown';

/** `attempt` again (every few seconds) until it answers or the notifier stops. */
async function untilStarted<T>(
  attempt: () => Promise<T>,
  signal: AbortSignal,
  log: Logger,
): Promise<T | undefined> {
  while (!signal.aborted) {
    try {
      return await attempt();
    } catch (error) {
      log.warn({ err: error }, 'e-mail notifier could not start; tried again');
      await sleep(5000, undefined, { signal }).catch(() => {});
    }
  }
  return undefined;
}
