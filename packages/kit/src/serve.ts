/** Serves a fetch handler on a port and stops it gracefully: no new connections, in-flight ones finish. */
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
    const server = serve({ fetch: fetchHandler, port, hostname }, (info: AddressInfo) => {
      resolve({
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Idle keep-alive sockets would hold close() open; busy ones finish their response first.
            if ('closeIdleConnections' in server) server.closeIdleConnections();
          }),
      });
    });
    server.once('error', reject);
  });
}

/** Runs `stop` once on SIGTERM or SIGINT, then exits; a second signal exits at once. */
export function onShutdownSignal(stop: () => Promise<void>, log: (msg: string) => void): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    log(`${signal}: shutting down`);
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
