// Fixed one-minute windows per caller. In memory for one process; in Redis when REDIS_URL is set,
// so every server process counts against the same budget, and in this process while Redis cannot
// answer (never no limit at all).
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/**
 * A store answers synchronously when it can (in memory): the limiters run on every request, and a
 * promise each there showed in its cost. Redis answers with a promise.
 */
export interface RateLimitStore {
  /** Counts one more in the caller's current window. */
  hit(key: string, windowMs: number, now: number): WindowCount | Promise<WindowCount>;
  /** The caller's current window without counting (0 when none). */
  peek(key: string, windowMs: number, now: number): WindowCount | Promise<WindowCount>;
  close(): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  #windows = new Map<string, { start: number; count: number }>();

  hit(key: string, windowMs: number, now: number): WindowCount {
    const start = now - (now % windowMs);
    const window = this.#window(key, start);
    window.count += 1;
    return { count: window.count, resetMs: start + windowMs - now };
  }

  peek(key: string, windowMs: number, now: number): WindowCount {
    const start = now - (now % windowMs);
    const window = this.#windows.get(key);
    return { count: window?.start === start ? window.count : 0, resetMs: start + windowMs - now };
  }

  /** Counts at least `count` in the caller's current window (a count another store gave); the window after. */
  raise(key: string, windowMs: number, now: number, count: number): WindowCount {
    const start = now - (now % windowMs);
    const known = this.#windows.get(key);
    // Nothing to remember of a count of 0 (the failure limit peeks on every request).
    if (count <= 0 && known?.start !== start) return { count: 0, resetMs: start + windowMs - now };
    const window = known?.start === start ? known : this.#window(key, start);
    if (count > window.count) window.count = count;
    return { count: window.count, resetMs: start + windowMs - now };
  }

  #window(key: string, start: number): { start: number; count: number } {
    let window = this.#windows.get(key);
    if (!window || window.start !== start) {
      // Drop finished windows now and then, so idle keys do not pile up.
      if (this.#windows.size > 10_000) {
        for (const [k, w] of this.#windows) if (w.start !== start) this.#windows.delete(k);
      }
      window = { start, count: 0 };
      this.#windows.set(key, window);
    }
    return window;
  }

  async close(): Promise<void> {}
}

export interface RedisStoreOptions {
  /** While Redis does not answer, how often to ask it again (a PING no request waits for). */
  retryMs: number;
  /** Longest wait for one Redis command. */
  commandTimeoutMs?: number;
  /** Where the store says that it lost Redis and that it has it back (once each, not per request). */
  log: Pick<Logger, 'warn' | 'info'>;
}

/**
 * Counters in Redis, and in this process while Redis does not answer. The process keeps its own
 * count of every window all along, raised to what Redis answers, so that when a call fails (Redis
 * down, hung, or too slow on a busy event loop) that request and every one after it are counted
 * here, from the last count Redis gave, and the limit holds per server; nothing is let through
 * unlimited. While Redis is out no request waits for it: one PING every `retryMs`, sent in the
 * background, finds out when it answers again, and the next request counts in Redis. A count
 * kept here during the outage goes on counting (the larger of the two) for the rest of its window.
 */
export class RedisRateLimitStore implements RateLimitStore {
  #redis: Redis;
  #retryMs: number;
  #log: Pick<Logger, 'warn' | 'info'>;
  #local = new MemoryRateLimitStore();
  /** Redis is out: count here and only probe it. */
  #out = false;
  #nextProbeAt = 0;
  #probing = false;
  /** Commands sent to Redis (for tests and metrics). */
  redisCalls = 0;

  constructor(url: string, options: RedisStoreOptions) {
    this.#retryMs = options.retryMs;
    this.#log = options.log;
    this.#redis = new Redis(url, {
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 1000,
      connectTimeout: options.commandTimeoutMs ?? 1000,
      // Reconnect attempts at most a second apart, so a restarted Redis is found quickly.
      retryStrategy: (times) => Math.min(times * 50, 1000),
      // Connects on the first hit, so a process that never counts (the CLI) never dials.
      lazyConnect: true,
    });
    // Connection errors surface on the command that needs Redis; don't crash on the event.
    this.#redis.on('error', () => {});
  }

  hit(key: string, windowMs: number, now: number): WindowCount | Promise<WindowCount> {
    if (this.#out) {
      this.#probe(now);
      return this.#local.hit(key, windowMs, now);
    }
    const start = now - (now % windowMs);
    const redisKey = `ratelimit:${key}:${start}`;
    this.redisCalls += 1;
    return this.#redis
      .multi()
      .incr(redisKey)
      .pexpire(redisKey, windowMs + 1000)
      .exec()
      .then(
        (replies) => {
          const [error, count] = replies?.[0] ?? [new Error('Redis answered no count'), 0];
          if (error) throw error;
          this.#local.hit(key, windowMs, now);
          return this.#local.raise(key, windowMs, now, count as number);
        },
      )
      .catch((error: unknown) => {
        this.#lost(now, error);
        return this.#local.hit(key, windowMs, now);
      });
  }

  peek(key: string, windowMs: number, now: number): WindowCount | Promise<WindowCount> {
    if (this.#out) {
      this.#probe(now);
      return this.#local.peek(key, windowMs, now);
    }
    const start = now - (now % windowMs);
    this.redisCalls += 1;
    return this.#redis.get(`ratelimit:${key}:${start}`).then(
      // Read, not raised: raising here could take in a hit whose own answer is still on its way,
      // and that answer then counts it a second time (local.hit, then raise).
      (value) => {
        const local = this.#local.peek(key, windowMs, now);
        return { count: Math.max(local.count, Number(value ?? 0)), resetMs: local.resetMs };
      },
      (error: unknown) => {
        this.#lost(now, error);
        return this.#local.peek(key, windowMs, now);
      },
    );
  }

  #lost(now: number, error: unknown): void {
    if (this.#out) return;
    this.#out = true;
    this.#nextProbeAt = now + this.#retryMs;
    // The message only: a command error carries its arguments (counter names).
    const reason = error instanceof Error ? error.message : String(error);
    this.#log.warn({ reason }, 'rate limit store: Redis does not answer; counting in this process until it does');
  }

  /** While Redis is out: one PING at a time, `retryMs` apart; the first answer brings Redis back. */
  #probe(now: number): void {
    if (this.#probing || now < this.#nextProbeAt) return;
    this.#probing = true;
    this.redisCalls += 1;
    this.#redis.ping().then(
      () => {
        this.#probing = false;
        if (!this.#out) return;
        this.#out = false;
        this.#log.info('rate limit store: Redis answers again; counting there');
      },
      () => {
        this.#probing = false;
        this.#nextProbeAt = now + this.#retryMs;
      },
    );
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }
}
