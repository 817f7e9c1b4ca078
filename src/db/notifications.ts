// LISTEN on PostgreSQL (the embedded engine has PGlite's own, src/db/embedded.ts).
import pg from 'pg';
import type { NotificationListener } from './driver.ts';

/**
 * LISTEN on PostgreSQL: one connection outside the pool, opened at the first listen. When it drops,
 * every listener hears onState(false) at once, and onState(true) once it is back (after a retry
 * every second), its channels listened to again.
 */
export class PostgresNotifications {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private readonly listeners = new Map<string, Set<NotificationListener>>();
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly databaseUrl: string;

  constructor(databaseUrl: string) {
    this.databaseUrl = databaseUrl;
  }

  async listen(channel: string, listener: NotificationListener): Promise<() => Promise<void>> {
    let set = this.listeners.get(channel);
    const fresh = !set;
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    const client = this.client;
    if (client) {
      try {
        if (fresh) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        listener.onState(true);
      } catch {
        // The connection broke under this LISTEN: the channel is listened to again on the next one.
        listener.onState(false);
        this.lost(client);
      }
    } else {
      listener.onState(false);
      await this.connect();
    }
    return async () => {
      set.delete(listener);
    };
  }

  private connect(): Promise<void> {
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<void> {
    // Already open: a listen() may have opened it while a retry was waiting.
    if (this.closed || this.client) return;
    // Keepalive: this connection only ever waits, and a network that drops it silently would
    // otherwise go unnoticed (nothing written, so nothing fails). A connection attempt that hangs
    // gives up, and is retried.
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: 10_000,
    });
    const lost = () => this.lost(client);
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      for (const listener of this.listeners.get(message.channel) ?? []) listener.onMessage(message.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of this.listeners.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch {
      client.end().catch(() => {});
      this.scheduleRetry();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.broadcast(true);
  }

  /** The listening connection broke: listeners hear it, and a new one is opened. */
  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.broadcast(false);
    client.end().catch(() => {});
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, 1_000);
    this.retry.unref();
  }

  private broadcast(listening: boolean): void {
    for (const set of this.listeners.values()) for (const listener of set) listener.onState(listening);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client) await client.end().catch(() => {});
  }
}
