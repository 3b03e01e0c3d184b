/**
 * One delivery (an outbox row): its state and how the outcome of an attempt changes it. Nothing here
 * does I/O; the outbox (outbox.ts) stores the state, businessLogic.ts decides the outcome.
 */

/** How one attempt ended: the HTTP status when there was an answer, else the error. */
export interface AttemptResult {
  status?: number;
  error?: string;
}

export const isSuccess = (r: AttemptResult): r is AttemptResult & { status: number } =>
  r.status !== undefined && r.status >= 200 && r.status < 300;

export type DeliveryEvent =
  /** A 2xx answered. */
  | { type: 'Delivered'; data: { status: number; at: number } }
  /** Not delivered; tried again at `retryAt` (ms since the epoch). */
  | { type: 'RetryScheduled'; data: { status?: number; error: string; retryAt: number } }
  /** Not delivered, and the retry schedule is used up: given up. */
  | { type: 'GivenUp'; data: { status?: number; error: string } };

export interface DeliveryState {
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  /** When a pending delivery is due (ms since the epoch); null once it is finished. */
  nextAttemptAt: number | null;
  deliveredAt: string | null;
}

/** Every event is one attempt more. */
export function evolve(state: DeliveryState, event: DeliveryEvent): DeliveryState {
  const attempts = state.attempts + 1;
  switch (event.type) {
    case 'Delivered':
      return {
        status: 'delivered',
        attempts,
        lastStatus: event.data.status,
        lastError: null,
        nextAttemptAt: null,
        deliveredAt: new Date(event.data.at).toISOString(),
      };
    case 'RetryScheduled':
      return {
        status: 'pending',
        attempts,
        lastStatus: event.data.status ?? null,
        lastError: event.data.error,
        nextAttemptAt: event.data.retryAt,
        deliveredAt: null,
      };
    case 'GivenUp':
      return {
        status: 'failed',
        attempts,
        lastStatus: event.data.status ?? null,
        lastError: event.data.error,
        nextAttemptAt: null,
        deliveredAt: null,
      };
  }
}
