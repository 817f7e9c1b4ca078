// Fixed one-minute windows per caller. In memory for one process; in Redis when REDIS_URL is set,
// so every server process counts against the same budget.
import { Redis } from 'ioredis';

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export interface RateLimitStore {
  hit(key: string, windowMs: number, now: number): Promise<WindowCount>;
  close(): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  #windows = new Map<string, { start: number; count: number }>();

  async hit(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const start = now - (now % windowMs);
    let window = this.#windows.get(key);
    if (!window || window.start !== start) {
      // Drop finished windows now and then, so idle keys do not pile up.
      if (this.#windows.size > 10_000) {
        for (const [k, w] of this.#windows) if (w.start !== start) this.#windows.delete(k);
      }
      window = { start, count: 0 };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetMs: start + windowMs - now };
  }

  async close(): Promise<void> {}
}

export class RedisRateLimitStore implements RateLimitStore {
  #redis: Redis;

  constructor(url: string) {
    this.#redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 1000, lazyConnect: true });
    // lazyConnect: connects on the first hit, so a process that never counts (the CLI) never dials.
    // Connection errors surface on the command that needs Redis; don't crash on the event.
    this.#redis.on('error', () => {});
  }

  async hit(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const start = now - (now % windowMs);
    const redisKey = `ratelimit:${key}:${start}`;
    const [[, count]] = (await this.#redis.multi().incr(redisKey).pexpire(redisKey, windowMs + 1000).exec()) as [
      [unknown, number],
    ];
    return { count, resetMs: start + windowMs - now };
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }
}
