/** Serves a fetch handler on a port and stops it gracefully: no new connections, in-flight ones finish. */
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

export function startServer(
  fetchHandler: FetchHandler,
  port: number,
  hostname = '0.0.0.0',
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    // The node adapter serves plain HTTP/1.1 here, so this is an http.Server.
    const server = serve({ fetch: fetchHandler, port, hostname }, (info: AddressInfo) => {
      resolve({
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            // Idle keep-alive sockets would hold close() open; busy ones finish their response first
            // and are closed as soon as they turn idle.
            const sweep = setInterval(() => (server as HttpServer).closeIdleConnections(), 50);
            server.close(() => {
              clearInterval(sweep);
              done();
            });
            (server as HttpServer).closeIdleConnections();
          }),
      });
    });
    server.once('error', reject);
  });
}

/** Runs `stop` once on SIGTERM or SIGINT, then exits; a second signal exits at once. */
export function onShutdownSignal(stop: () => Promise<void>, log: (msg: string, err?: unknown) => void): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    log(`${signal}: shutting down`);
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log('shutdown failed', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
