/**
 * How the gateway (or a service) calls another service: one interface, called in-process in
 * embedded mode and over HTTP in distributed mode.
 */
import { problems } from './problem';

export interface ServiceClient {
  fetch(request: Request): Promise<Response>;
}

type FetchHandler = (request: Request) => Response | Promise<Response>;

/** Embedded mode: the service app's own `fetch`, no network. */
export function inProcessClient(fetchHandler: FetchHandler): ServiceClient {
  return { fetch: async (request) => fetchHandler(request) };
}

/** Distributed mode: the same request sent to the service's base URL; a refused connection is a 503. */
export function httpClient(baseUrl: string, timeoutMs = 30_000): ServiceClient {
  const base = new URL(baseUrl);
  return {
    async fetch(request) {
      const incoming = new URL(request.url);
      const target = new URL(incoming.pathname + incoming.search, base);
      try {
        return await fetch(new Request(target, request), { signal: AbortSignal.timeout(timeoutMs) });
      } catch {
        throw problems.unavailable(`service at ${base.host} did not answer`);
      }
    },
  };
}
