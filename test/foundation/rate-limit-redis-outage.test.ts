// The rate limits while Redis is down or hangs: counted in this process (continuing from the last
// count Redis gave), never switched off; counted in Redis again as soon as it answers. On a
// redis-server of this file's own, killed, restarted and paused (SIGSTOP) here.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/modules/api-keys/key-format.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { startOwnRedis, type OwnRedis } from '../helpers/redis.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

const LIMIT = 5;
const FAILURES = 3;

let redis: OwnRedis;
let reader: Redis;
let t: TestApp;

beforeAll(async () => {
  redis = await startOwnRedis();
  reader = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 50 });
  reader.on('error', () => {});
  t = await buildTestApp({
    REDIS_URL: redis.url,
    RATE_LIMIT_PER_MINUTE: String(LIMIT),
    AUTH_FAILURES_PER_MINUTE: String(FAILURES),
    REDIS_BREAKER_MS: '200',
  });
});
afterAll(async () => {
  await t?.close();
  reader?.disconnect();
  await redis?.stop();
});

/** Moves the test clock to the start of a fresh minute: no window rolls over during the test. */
function startOfFreshMinute(): void {
  const now = t.clock.now().getTime();
  t.clock.advance(60_000 - (now % 60_000) + 60_000);
}

/** What Redis holds for this key's current window (0 when nothing). */
async function countInRedis(rawKey: string): Promise<number> {
  const now = t.clock.now().getTime();
  const value = await reader.get(`ratelimit:key:${hashApiKey(rawKey).slice(0, 32)}:${now - (now % 60_000)}`);
  return Number(value ?? 0);
}

const enums = (headers: Record<string, string>, remoteAddress?: string) =>
  t.app.inject({ url: '/public/v1/enums', headers, ...(remoteAddress ? { remoteAddress } : {}) });

/** Sends a request with a fresh key now and then until Redis counts it (it answers again); how long that took. */
async function untilCountedInRedis(): Promise<{ headers: Record<string, string>; apiKey: string; waitedMs: number }> {
  const started = Date.now();
  while (Date.now() - started < 10_000) {
    const { headers, apiKey } = await t.tenant();
    expect((await enums(headers)).statusCode).toBe(200);
    if ((await countInRedis(apiKey).catch(() => 0)) > 0) return { headers, apiKey, waitedMs: Date.now() - started };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the rate limiter never went back to Redis');
}

describe('rate limits with Redis killed and restarted', () => {
  it('keep counting in the process while Redis is down, the failure limit too, and go back to Redis when it answers', async () => {
    startOfFreshMinute();
    const a = await t.tenant();
    for (let i = 0; i < 3; i++) expect((await enums(a.headers)).statusCode).toBe(200);
    expect(await countInRedis(a.apiKey)).toBe(3);

    await redis.kill();
    // The budget goes on from Redis's last count: two more, then 429.
    const during = [];
    for (let i = 0; i < 4; i++) during.push((await enums(a.headers)).statusCode);
    expect(during).toEqual([200, 200, 429, 429]);
    const refused = await enums(a.headers);
    expectErrorEnvelope(refused, 429, 'TOO_MANY_REQUESTS', '/public/v1/enums');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers.ratelimit).toMatch(/^"per-key";r=0;t=\d+$/);

    // Failed authentications are limited too.
    const failures = [];
    for (let i = 0; i < FAILURES + 2; i++) {
      failures.push((await enums({ 'x-api-key': `rk_live_madeup${i}` }, '198.51.100.77')).statusCode);
    }
    expect(failures).toEqual([401, 401, 401, 429, 429]);

    // An empty Redis comes back: counting goes back to it within a few probes...
    await redis.restart();
    const b = await untilCountedInRedis();
    expect(b.waitedMs).toBeLessThan(5_000);
    const before = await countInRedis(b.apiKey);
    expect((await enums(b.headers)).statusCode).toBe(200);
    expect(await countInRedis(b.apiKey)).toBe(before + 1);
    // ...and what this process counted meanwhile still holds: the key over its limit stays refused.
    expect((await enums(a.headers)).statusCode).toBe(429);
  });
});

describe('rate limits with Redis hanging (SIGSTOP)', () => {
  it('a burst while every Redis call times out gets the limit, not more; Redis counts again once it answers', async () => {
    startOfFreshMinute();
    const c = await t.tenant();
    for (let i = 0; i < 2; i++) expect((await enums(c.headers)).statusCode).toBe(200);

    redis.pause();
    try {
      const started = Date.now();
      const burst = await Promise.all(Array.from({ length: 20 }, () => enums(c.headers)));
      const statuses = burst.map((res) => res.statusCode);
      expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT - 2);
      expect(statuses.filter((status) => status === 429)).toHaveLength(20 - (LIMIT - 2));
      // One command timeout for the burst; after that no request waits for Redis.
      expect(Date.now() - started).toBeLessThan(5_000);
      const quick = Date.now();
      expect((await enums(c.headers)).statusCode).toBe(429);
      expect(Date.now() - quick).toBeLessThan(500);
    } finally {
      redis.resume();
    }
    const d = await untilCountedInRedis();
    expect(d.waitedMs).toBeLessThan(5_000);
    expect((await enums(c.headers)).statusCode).toBe(429);
  });
});
