/** Loopback ports for tests: a free port, and a TCP forwarder that starts listening when told to. */
import { connect, createServer, type Socket } from 'node:net';

/** A free port on 127.0.0.1 (free a moment ago: nobody listens on it now). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface Forwarder {
  /** `127.0.0.1:<port>`: refuses connections until `open()`. */
  address: string;
  /** Starts listening and forwarding every connection to the target. */
  open(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP forwarder to `target` (`host:port`) on a port chosen now and listened on only once `open()`
 * is called: an engine that is not there yet, then is.
 */
export async function delayedForwarder(target: string): Promise<Forwarder> {
  const [host, port] = target.split(':');
  const listenPort = await freePort();
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    return socket;
  };
  const server = createServer((client) => {
    const upstream = track(connect(Number(port), host!));
    track(client);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  return {
    address: `127.0.0.1:${listenPort}`,
    open: () => new Promise((resolve) => server.listen(listenPort, '127.0.0.1', resolve)),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (server.listening) server.close(() => resolve());
        else resolve();
      }),
  };
}
