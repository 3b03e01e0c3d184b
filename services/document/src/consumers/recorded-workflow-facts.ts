/**
 * Read-your-writes for the commands the workflow service decides (docs/decisions.md, "Each fact by one
 * road"): its facts reach the document's stream from the bus only, so a command's answer waits,
 * bounded, until the bus consumer has recorded the facts the workflow service answered.
 */
import { docFormStream } from '@docflow/contracts';
import type { EventStore } from '@docflow/eventstore';
import { loadAggregate } from '@docflow/kit/eventsourcing';
import { type DocState, docAggregate } from '../documents/docForm';

/** How long an answer waits for its facts: as long as the gateway waits for an account (5 s). */
export const FACTS_WAIT_MS = 5000;
/** A consumer in another instance records without waking this one: the stream is read again this often. */
const READ_AGAIN_MS = 50;

/** Per store (one per service), per document: the answers waiting for it. */
const waiting = new WeakMap<EventStore, Map<string, Set<() => void>>>();

/** Wakes the answers waiting on `docId`: the consumer has recorded a fact of it. */
export function wakeFactWaiters(store: EventStore, docId: string): void {
  for (const wake of waiting.get(store)?.get(docId) ?? []) wake();
}

/** Resolves on the next wake for `docId`, or after `ms`; registered at once, so no wake is missed. */
function nextWake(store: EventStore, docId: string): (ms: number) => Promise<void> {
  const byDoc = waiting.get(store) ?? new Map<string, Set<() => void>>();
  waiting.set(store, byDoc);
  const wakes = byDoc.get(docId) ?? new Set<() => void>();
  byDoc.set(docId, wakes);
  let woken = false;
  let resolveWait: (() => void) | undefined;
  const wake = () => {
    woken = true;
    resolveWait?.();
  };
  wakes.add(wake);
  const forget = () => {
    wakes.delete(wake);
    if (wakes.size === 0) byDoc.delete(docId);
  };
  return (ms) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => resolveWait?.(), ms);
      resolveWait = () => {
        clearTimeout(timer);
        forget();
        resolve();
      };
      if (woken || ms <= 0) resolveWait();
    });
}

/**
 * The document once its stream holds every fact of `factIds`, or undefined when `timeoutMs` passed
 * first (the bus does not deliver: the caller answers 503).
 */
export async function workflowFactsRecorded(
  store: EventStore,
  docId: string,
  factIds: readonly string[],
  timeoutMs = FACTS_WAIT_MS,
): Promise<DocState | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const wait = nextWake(store, docId);
    const { state } = await loadAggregate(store, docFormStream(docId), docAggregate);
    const left = deadline - Date.now();
    const recorded = factIds.every((id) => state.workflowSourceIds.includes(id));
    if (recorded || left <= 0) {
      await wait(0);
      return recorded ? state : undefined;
    }
    await wait(Math.min(left, READ_AGAIN_MS));
  }
}
