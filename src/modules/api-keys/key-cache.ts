// A per-process cache of API keys by hash, so a request is authenticated without a database read.
// Revocation stays exact on every server: a trigger (migration 0016) sends NOTIFY api_keys_changed
// at the commit of any change to a key, and every process drops its whole cache when it hears it.
// While the LISTEN connection is down nothing is cached (every request reads the database), and an
// entry lives at most LEASE_MS even if a notification were lost.
import type { NotificationListener } from '../../db/client.ts';

export const LEASE_MS = 10_000;
const MAX_ENTRIES = 10_000;
const ECHO_GRACE_MS = 25;

export interface Notifications {
  listen(channel: string, listener: NotificationListener): Promise<() => Promise<void>>;
}

export class KeyCache<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();
  private listening = false;
  /** Bumped by every invalidation: a read that started before one must not fill the cache. */
  private generation = 0;
  private readonly waiters = new Set<() => void>();
  /** Settles once the first LISTEN was answered (or failed). */
  private readonly started: Promise<void>;

  constructor(notifications: Notifications, channel: string) {
    this.started = notifications
      .listen(channel, {
        onMessage: () => this.invalidate(),
        onState: (listening) => {
          this.listening = listening;
          this.invalidate();
        },
      })
      .then(
        () => undefined,
        () => {
          this.listening = false;
        },
      );
  }

  /**
   * Settles once this process listens (or knows it cannot). A process that changes a key right
   * after it starts (the CLI) waits for this first, or it would not hear its own change and would
   * answer before the servers dropped the key.
   */
  whenStarted(): Promise<void> {
    return this.started;
  }

  private invalidate(): void {
    this.generation++;
    this.entries.clear();
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  get(key: string, nowMs: number): T | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** The generation to pass to set() after reading the database. */
  mark(): number {
    return this.generation;
  }

  set(key: string, value: T, nowMs: number, generation: number): void {
    if (!this.listening || generation !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { value, until: nowMs + LEASE_MS });
  }

  /**
   * Resolves a little after the next invalidation this process hears (or after timeoutMs): a
   * change made here answers only once its notification came back. PostgreSQL signals every
   * listener at the same commit, so by then the other servers have it on their sockets too; the
   * grace covers their reading it.
   */
  nextInvalidation(timeoutMs: number): Promise<void> {
    if (!this.listening) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      const waiters = this.waiters;
      function done() {
        clearTimeout(timer);
        waiters.delete(done);
        setTimeout(resolve, ECHO_GRACE_MS);
      }
      waiters.add(done);
    });
  }
}
