// A TCP proxy on 127.0.0.1 in front of PostgreSQL: the network between the app and its database,
// which a test can cut (every connection through it reset at once) or take down (new connections
// refused) without touching the shared server.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** The same database URL, through the proxy. */
  urlFor(databaseUrl: string): string;
  /** Resets every connection through the proxy (the app sees ECONNRESET or "Connection terminated"). */
  cut(): void;
  /** Stops listening and cuts: new connections are refused (ECONNREFUSED) until up(). */
  down(): Promise<void>;
  /** Listens again on the same port (if it is not listening). */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  let server: Server | undefined;
  let port = 0;
  const listen = async () => {
    if (server) return;
    const listening = createServer((client) => {
      const upstream = connect(target.port, target.host);
      track(client);
      track(upstream);
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => resolve());
    });
    port = (listening.address() as { port: number }).port;
    server = listening;
  };
  const cut = () => {
    for (const socket of sockets) socket.resetAndDestroy();
  };
  const stop = async () => {
    const stopping = server;
    server = undefined;
    cut();
    if (stopping) await new Promise<void>((resolve) => stopping.close(() => resolve()));
  };
  await listen();
  return {
    port,
    urlFor(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    cut,
    down: stop,
    up: listen,
    close: stop,
  };
}

/** Host and port of a postgres:// URL. */
export function targetOf(databaseUrl: string): { host: string; port: number } {
  const url = new URL(databaseUrl);
  return { host: url.hostname, port: Number(url.port || 5432) };
}
