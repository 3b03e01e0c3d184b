/** Loopback ports for tests: a free port, and a TCP forwarder that starts listening when told to. */
import { readFileSync } from 'node:fs';
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

/** Where the kernel picks the local ports of outgoing connections (and of `listen(0)`). */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return [Number(low), Number(high)];
  } catch {
    return [32768, 60999];
  }
}

function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free port on 127.0.0.1 below the kernel's ephemeral range, for an engine stopped and started
 * again on the same port: while it is down, no outgoing connection and no `listen(0)` of another test
 * can take it (a Kafka restart failed once on its controller port, taken by a connection meanwhile).
 */
export async function stablePort(): Promise<number> {
  const below = Math.min(ephemeralRange()[0], 32768);
  const low = Math.max(1024, below - 12_000);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (below - low));
    if (await listensOn(port)) return port;
  }
  throw new Error(`no free port in ${low}-${below - 1} after 50 tries`);
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
  const listenPort = await stablePort();
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
