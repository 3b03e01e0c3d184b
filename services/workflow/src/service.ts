import { INTERNAL_PATHS, topicsOf, workflowStream } from '@docflow/contracts';
import type { Subscription } from '@docflow/eventstore';
import { markAppends } from '@docflow/kit/eventsourcing';
import {
  createServiceApp,
  relayOwnStreams,
  type ServiceBaseDeps,
  type ServiceClient,
} from '@docflow/kit/http';
import type { Hono } from 'hono';
import { workflowApi } from './api';
import type { MailSettings } from './notify/config';
import { smtpMailer } from './notify/mailer';
import { startNotifier } from './notify/notifier';
import { type Clock, systemClock } from './scheduler/clock';
import { startScheduler } from './scheduler/scheduler';

export interface WorkflowServiceDeps extends ServiceBaseDeps {
  identity: ServiceClient;
  /** Asked for a document's title by the e-mail notifications. */
  document: ServiceClient;
  /** The time commands and stage deadlines go by (default the system's). */
  clock?: Clock;
  /** How often the scheduler looks for due deadlines (default 1000 ms). */
  schedulerPollMs?: number;
  /** The e-mail notifications' SMTP server and sender (DOCFLOW_SMTP_URL); none: no e-mail. */
  mail?: MailSettings;
}

export interface WorkflowService {
  app: Hono;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createWorkflowService(deps: WorkflowServiceDeps): WorkflowService {
  // The facts of one command are one append, published as one message (docs/decisions.md, "Each fact
  // by one road"): the document service records them as one change.
  const store = markAppends(deps.store, workflowStream(''));
  const app = createServiceApp(deps, { guarded: [INTERNAL_PATHS] });
  const clock = deps.clock ?? systemClock;
  app.route('/', workflowApi({ store, identity: deps.identity, internalToken: deps.internalToken, clock }));
  let relay: Subscription | undefined;
  let scheduler: Subscription | undefined;
  let notifier: Subscription | undefined;
  return {
    app,
    async start() {
      relay ??= relayOwnStreams('workflow', deps, {
        prefixes: [workflowStream('')],
        topic: topicsOf(deps.namespace).workflow,
        wholeAppends: true,
      });
      scheduler ??= startScheduler({
        store,
        lease: deps.serviceLease,
        clock,
        pollMs: deps.schedulerPollMs ?? 1000,
        log: deps.log,
      });
      if (!deps.mail) deps.log.info('e-mail notifications off: DOCFLOW_SMTP_URL is not set');
      else
        notifier ??= startNotifier({
          store: deps.store,
          lease: deps.serviceLease,
          identity: deps.identity,
          document: deps.document,
          internalToken: deps.internalToken,
          mailer: smtpMailer(deps.mail.smtpUrl, deps.mail.from),
          publicUrl: deps.mail.publicUrl,
          log: deps.log,
        });
    },
    async stop() {
      await notifier?.stop();
      await scheduler?.stop();
      await relay?.stop();
    },
  };
}
