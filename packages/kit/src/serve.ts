/** Serves a fetch handler on a port and stops it gracefully: no new connections, in-flight ones finish. */
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve } from '@hono/node-server';

export interface RunningServer {
  port: number;
  /**
   * Stops accepting connections and waits for the requests in flight to be answered; connections
   * still busy after `drainMs` (default: no bound) are closed. Resolves with how many were.
   */
  close(drainMs?: number): Promise<number>;
}

type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

/** How often idle keep-alive connections are closed while the server drains. */
const IDLE_SWEEP_MS = 50;
/**
 * How long the server keeps an idle keep-alive connection: longer than the services' HTTP client
 * keeps one (service-client.ts, CLIENT_IDLE_MS), so that the client, not the server, closes it. A
 * server closing first races a request the client sends on it at that moment: a reset, and a 503 for
 * a request that cannot be sent again (a POST). Below the server's 60 s headers time-out.
 */
export const SERVER_KEEP_ALIVE_MS = 30_000;

export function startServer(
  fetchHandler: FetchHandler,
  port: number,
  hostname = '0.0.0.0',
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const open = new Set<Socket>();
    // The node adapter serves plain HTTP/1.1 here, so this is an http.Server.
    const server = serve({ fetch: fetchHandler, port, hostname }, (info: AddressInfo) => {
      resolve({
        port: info.port,
        close: (drainMs = Number.POSITIVE_INFINITY) =>
          new Promise<number>((done) => {
            let cut = 0;
            // Idle keep-alive sockets would hold close() open; busy ones finish their response first
            // and are closed as soon as they turn idle.
            const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
            const bound = Number.isFinite(drainMs)
              ? setTimeout(() => {
                  server.closeIdleConnections();
                  cut = open.size;
                  server.closeAllConnections();
                }, drainMs)
              : undefined;
            server.close(() => {
              clearInterval(sweep);
              clearTimeout(bound);
              done(cut);
            });
            server.closeIdleConnections();
          }),
      });
    }) as HttpServer;
    server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
    server.on('connection', (socket: Socket) => {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    });
    server.once('error', reject);
  });
}
