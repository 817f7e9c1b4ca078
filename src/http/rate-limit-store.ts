// Fixed one-minute windows per caller. In memory for one process; in Redis when REDIS_URL is set,
// so every server process counts against the same budget.
import { Redis } from 'ioredis';

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

  peek(key: string, windowMs: number, now: number): WindowCount {
    const start = now - (now % windowMs);
    const window = this.#windows.get(key);
    return { count: window?.start === start ? window.count : 0, resetMs: start + windowMs - now };
  }

  async close(): Promise<void> {}
}

/** Redis is skipped while the breaker is open (after a failure): the caller fails open at once. */
export class RateLimitStoreUnavailableError extends Error {
  override name = 'RateLimitStoreUnavailableError';
}

export interface RedisStoreOptions {
  /** After a failed Redis call, how long to stop asking Redis (the breaker stays open). */
  breakerOpenMs: number;
  /** Longest wait for one Redis command. */
  commandTimeoutMs?: number;
}

/**
 * Counters in Redis, behind a circuit breaker: when a command fails (Redis down, slow, refusing),
 * the store stops calling Redis for `breakerOpenMs` and every hit fails at once, so the rate
 * limiter lets requests through without each one waiting for a timeout. After that time one call
 * tries Redis again (half-open): success closes the breaker, failure opens it again.
 */
export class RedisRateLimitStore implements RateLimitStore {
  #redis: Redis;
  #breakerOpenMs: number;
  #openUntil = 0;
  #probing = false;
  /** Commands sent to Redis (for tests and metrics). */
  redisCalls = 0;

  constructor(url: string, options: RedisStoreOptions) {
    this.#breakerOpenMs = options.breakerOpenMs;
    this.#redis = new Redis(url, {
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 1000,
      connectTimeout: options.commandTimeoutMs ?? 1000,
      // Connects on the first hit, so a process that never counts (the CLI) never dials.
      lazyConnect: true,
    });
    // Connection errors surface on the command that needs Redis; don't crash on the event.
    this.#redis.on('error', () => {});
  }

  /** Whether the breaker is open at `now` (Redis is not being asked). */
  isOpen(now: number): boolean {
    return now < this.#openUntil || this.#probing;
  }

  async #call<T>(now: number, command: () => Promise<T>): Promise<T> {
    if (this.isOpen(now)) throw new RateLimitStoreUnavailableError('Redis skipped: circuit breaker open after a failure');
    const halfOpen = this.#openUntil !== 0;
    if (halfOpen) this.#probing = true; // one probe at a time
    this.redisCalls += 1;
    try {
      const result = await command();
      this.#openUntil = 0;
      return result;
    } catch (error) {
      this.#openUntil = now + this.#breakerOpenMs;
      throw error;
    } finally {
      if (halfOpen) this.#probing = false;
    }
  }

  async hit(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const start = now - (now % windowMs);
    const redisKey = `ratelimit:${key}:${start}`;
    const [[error, count]] = await this.#call(now, async () =>
      (await this.#redis.multi().incr(redisKey).pexpire(redisKey, windowMs + 1000).exec()) as [[Error | null, number]],
    );
    if (error) throw error;
    return { count, resetMs: start + windowMs - now };
  }

  async peek(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const start = now - (now % windowMs);
    const value = await this.#call(now, () => this.#redis.get(`ratelimit:${key}:${start}`));
    return { count: Number(value ?? 0), resetMs: start + windowMs - now };
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }
}
