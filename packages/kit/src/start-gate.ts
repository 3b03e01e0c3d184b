/**
 * What a service answers while its start is still being retried: `/healthz` and `/metrics` as ever,
 * `/readyz` 503 `starting` with what it waits for, every other path 503 problem+json with Retry-After.
 */
import { BlobStoreUnavailable } from '@docflow/blobstore';
import { BusUnavailable } from '@docflow/bus';
import { StoreUnavailable } from '@docflow/eventstore';
import { problemResponse, problems } from './problem';

type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

const RETRY_AFTER_SECONDS = '5';
const ALWAYS_SERVED = new Set(['/healthz', '/metrics']);

export interface StartGate {
  /** `handler` once open; the answers above until then. */
  guard(handler: FetchHandler): FetchHandler;
  /** Records why the last start attempt failed, for `/readyz`. */
  waiting(error: unknown): void;
  open(): void;
}

/**
 * What a failed start waits for, in words that name the engine and nothing internal (no address, no
 * message text: the gateway's `/readyz` is public); the log has the whole error.
 */
export function startBlocker(error: unknown): string {
  if (error instanceof BusUnavailable) return 'waiting for Kafka';
  if (error instanceof StoreUnavailable) return 'waiting for the event store';
  if (error instanceof BlobStoreUnavailable) return 'waiting for the blob store';
  const name = error instanceof Error ? error.name : typeof error;
  return `start failed (${name}), retrying: see the log`;
}

/** @example startServer(gate.guard(service.fetch), port); ...; gate.open(); */
export function createStartGate(): StartGate {
  let open = false;
  let reason = 'starting';
  return {
    guard(handler) {
      return (request, env) => {
        if (open) return handler(request, env);
        const path = new URL(request.url).pathname;
        if (ALWAYS_SERVED.has(path)) return handler(request, env);
        const headers = { 'retry-after': RETRY_AFTER_SECONDS };
        if (path === '/readyz')
          return Response.json({ status: 'starting', reason }, { status: 503, headers });
        const problem = problems.unavailable(`the service is starting (${reason}); try again shortly`);
        return problemResponse(problem.toProblem(path), headers);
      };
    },
    waiting(error) {
      reason = startBlocker(error);
    },
    open() {
      open = true;
    },
  };
}
