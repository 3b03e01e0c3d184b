/**
 * The durable scheduler of stage deadlines (issue 36). The timers are the workflow events themselves
 * (StageStarted carries `dueAt` and `remindAt`; TasksDueSoon and TasksOverdue record that they fired),
 * so nothing but the event store holds them. The scheduler follows the workflow streams from the first
 * event, keeps in memory only when each workflow next needs a decision, and when the clock reaches it
 * decides (escalation.ts) and appends with the expected revision: a second scheduler or a restart
 * decides on the appended state and adds nothing. On a store several processes share it runs in the
 * holder of the `workflow-scheduler` lease only, so one process fires.
 */
import { randomUUID } from 'node:crypto';
import { workflowStream } from '@docflow/contracts';
import type { EventStore, ServiceLease, Subscription } from '@docflow/eventstore';
import { type Logger, newHexId } from '@docflow/kit';
import { commandMetadata, executeCommand, loadAggregate, whileLeased } from '@docflow/kit/eventsourcing';
import type { WorkflowState } from '@docflow/workflow-model';
import { workflowAggregate } from '../aggregate';
import { decideTimers, nextTimerAt } from '../escalation';
import type { Clock } from './clock';

export const SCHEDULER_LEASE = 'workflow-scheduler';
/** How long after a failed decision the scheduler tries that workflow again (by its clock). */
const RETRY_MS = 60_000;

export interface SchedulerOptions {
  store: EventStore;
  /** On a store several processes share: only the holder of SCHEDULER_LEASE fires. */
  lease?: ServiceLease;
  clock: Clock;
  /** How often due timers are looked for. */
  pollMs: number;
  log: Logger;
}

export function startScheduler(options: SchedulerOptions): Subscription {
  const { lease, log } = options;
  if (!lease) return schedulerWork(options);
  return whileLeased({
    lease,
    name: SCHEDULER_LEASE,
    log,
    start: () => ({ ...schedulerWork(options), position: () => undefined }),
  });
}

function schedulerWork({ store, clock, pollMs, log }: SchedulerOptions): Subscription {
  const prefix = workflowStream('');
  /** docId → when its workflow next needs a decision. */
  const due = new Map<string, number>();
  /** Workflows with events the due times do not reflect yet. */
  const changed = new Set<string>();
  const stopping = new AbortController();

  const subscription = store.subscribeAll({ streamPrefixes: [prefix] }, async (event) => {
    changed.add(event.streamId.slice(prefix.length));
  });

  function remember(docId: string, state: WorkflowState): void {
    const at = nextTimerAt(state);
    if (at === undefined) due.delete(docId);
    else due.set(docId, at);
  }

  async function fire(docId: string, now: Date): Promise<void> {
    const ids = { requestId: randomUUID(), correlationId: randomUUID() };
    const inputs = { at: now.toISOString(), newId: () => newHexId(), participants: {} };
    const result = await executeCommand(
      store,
      workflowStream(docId),
      workflowAggregate,
      (state) => decideTimers(state, inputs),
      commandMetadata(undefined, ids, now),
    );
    if (result.events.length)
      log.info({ docId, events: result.events.map((e) => e.type) }, 'stage deadline acted');
    remember(docId, result.state);
  }

  async function pass(): Promise<void> {
    for (const docId of [...changed]) {
      changed.delete(docId);
      remember(docId, (await loadAggregate(store, workflowStream(docId), workflowAggregate)).state);
    }
    const now = clock.now();
    for (const [docId, at] of due) {
      if (stopping.signal.aborted) return;
      if (at > now.getTime()) continue;
      await fire(docId, now).catch((error: unknown) => {
        // One workflow that cannot move (its next stage names an unknown account, the store is down)
        // holds up no other: it is tried again a while later.
        log.warn({ docId, err: error }, 'stage deadline could not act; tried again later');
        due.set(docId, now.getTime() + RETRY_MS);
      });
    }
  }

  const running = (async () => {
    while (!stopping.signal.aborted) {
      await pass().catch((error: unknown) =>
        log.warn({ err: error }, 'scheduler pass failed; next pass retries'),
      );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        stopping.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  })();

  return {
    async stop() {
      stopping.abort();
      await subscription.stop();
      await running;
    },
  };
}
