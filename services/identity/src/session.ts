/**
 * The session aggregate of a `session-<id>` stream: a sign-in that started a session (or failed), and
 * its end. Nothing here does I/O.
 */
import { type LiveSession, parseSessionEvent, rejections, type SessionEvent } from '@docflow/contracts';
import type { Aggregate, EventContext } from '@docflow/kit/eventsourcing';

export interface SessionState {
  accountId: string | null;
  live: boolean;
  /** The session as it started; null when none did (a failed sign-in, or no stream). */
  start: LiveSession | null;
}

export const initialSession: SessionState = { accountId: null, live: false, start: null };

export function evolveSession(state: SessionState, event: SessionEvent, context: EventContext): SessionState {
  switch (event.type) {
    case 'SessionStarted':
      return {
        accountId: event.data.accountId,
        live: true,
        start: { ...event.data, started: context.metadata.timestamp },
      };
    case 'SessionEnded':
      return { ...state, live: false };
    case 'SignInFailed':
      return { accountId: event.data.accountId, live: false, start: null };
  }
}

/** An account's event as the store holds it: enough to tell when its sessions were last ended. */
type AccountEventRecord = { type: string; data: Record<string, unknown>; metadata: { timestamp: string } };

/**
 * The time of an account's last deactivation or erasure: every session started at or before it has
 * ended, even after a reactivation. Undefined when there was none.
 */
export function sessionsCutOff(events: readonly AccountEventRecord[]): string | undefined {
  const ends = events.filter(
    (e) => e.type === 'AccountErased' || (e.type === 'AccountActivationChanged' && e.data.active === false),
  );
  return ends.at(-1)?.metadata.timestamp;
}

/** Whether a session is live now, given its person's account: not ended, the person active, no cut-off since. */
export function liveSession(
  session: SessionState,
  account: { active: boolean; erased: boolean },
  cutOff: string | undefined,
): LiveSession | undefined {
  const { start } = session;
  if (!session.live || !start || !account.active || account.erased) return undefined;
  return cutOff === undefined || cutOff < start.started ? start : undefined;
}

/** Ends a live session; a session that never started or has ended is not found. */
export function decideEndSession(
  cmd: Omit<Extract<SessionEvent, { type: 'SessionEnded' }>['data'], 'accountId'>,
  state: SessionState,
): SessionEvent[] {
  if (!state.live || state.accountId === null) throw rejections.notFound('no such live session');
  return [{ type: 'SessionEnded', data: { ...cmd, accountId: state.accountId } }];
}

export const sessionAggregate: Aggregate<SessionState, SessionEvent> = {
  initial: initialSession,
  evolve: evolveSession,
  parse: parseSessionEvent,
};
