/**
 * The session aggregate of a `session-<id>` stream: a sign-in that started a session (or failed), and
 * its end. Nothing here does I/O.
 */
import { parseSessionEvent, rejections, type SessionEvent } from '@docflow/contracts';
import type { Aggregate, EventContext } from '@docflow/kit/eventsourcing';

export interface SessionState {
  accountId: string | null;
  live: boolean;
  /** When the session started; null when none did (a failed sign-in, or no stream). */
  started: string | null;
}

export const initialSession: SessionState = { accountId: null, live: false, started: null };

export function evolveSession(state: SessionState, event: SessionEvent, context: EventContext): SessionState {
  switch (event.type) {
    case 'SessionStarted':
      return { accountId: event.data.accountId, live: true, started: context.metadata.timestamp };
    case 'SessionEnded':
      return { ...state, live: false };
    case 'SignInFailed':
      return { accountId: event.data.accountId, live: false, started: null };
  }
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
