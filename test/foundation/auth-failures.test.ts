// Issue 9 items 12 and 13: failed authentications are limited per client address (made-up keys
// each had a bucket of their own), X-Forwarded-For counts only from TRUST_PROXY, and a Redis outage
// is skipped by a circuit breaker instead of costing every request a timeout.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../src/config.ts';
import { RateLimitStoreUnavailableError, RedisRateLimitStore } from '../../src/http/rate-limit-store.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

const madeUpKey = () => `rk_live_${randomBytes(24).toString('base64url')}`;
let n = 0;
const freshIp = () => `198.51.100.${(n = (n + 1) % 250) + 1}`;

describe.each([
  ['in memory', {}],
  ['in Redis', { REDIS_URL: 'redis://127.0.0.1:6379' }],
])('failed authentications per client address (%s)', (_name, env) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ AUTH_FAILURES_PER_MINUTE: '5', ...env });
    // A fresh window, unshared with earlier runs against the same Redis.
    t.clock.advance(60_000 * (1 + Math.floor(Math.random() * 100_000)));
  });
  afterAll(async () => t.close());

  it('answers 429 after the threshold, before any key lookup, and only for that address', async () => {
    const ip = freshIp();
    const statuses = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await t.app.inject({ url: '/public/v1/enums', remoteAddress: ip, headers: { 'x-api-key': madeUpKey() } })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const limited = await t.app.inject({ url: '/public/v1/enums', remoteAddress: ip, headers: { 'x-api-key': madeUpKey() } });
    expectErrorEnvelope(limited, 429, 'TOO_MANY_REQUESTS', '/public/v1/enums');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // Even a valid key is refused from there: the key is not looked up at all past the limit.
    const { headers } = await t.tenant();
    expect((await t.app.inject({ url: '/public/v1/enums', remoteAddress: ip, headers })).statusCode).toBe(429);
    // Another address is unaffected; the next window starts afresh.
    expect((await t.app.inject({ url: '/public/v1/enums', remoteAddress: freshIp(), headers })).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await t.app.inject({ url: '/public/v1/enums', remoteAddress: ip, headers })).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For from a client that is not a trusted proxy', async () => {
    const ip = freshIp();
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.app.inject({
        url: '/public/v1/enums',
        remoteAddress: ip,
        headers: { 'x-api-key': madeUpKey(), 'x-forwarded-for': `203.0.113.${i + 1}` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe('TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ AUTH_FAILURES_PER_MINUTE: '2', TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' });
  });
  afterAll(async () => t.close());

  it('uses X-Forwarded-For from a trusted proxy: each client has its own count', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        url: '/public/v1/enums',
        remoteAddress: '10.1.2.3',
        headers: { 'x-api-key': madeUpKey(), 'x-forwarded-for': `203.0.113.${i + 1}` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401]);
  });

  it('refuses a malformed list at start', () => {
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example.com' })).toThrow(ConfigError);
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: 'loopback, ::1, fd00::/8' }).trustProxy).toEqual(['loopback', '::1', 'fd00::/8']);
  });
});

describe('Redis down: the circuit breaker', () => {
  it('asks a dead Redis once, then fails at once until the breaker half-opens', async () => {
    const store = new RedisRateLimitStore('redis://127.0.0.1:1', { breakerOpenMs: 30_000 });
    try {
      const now = 1_000_000;
      await expect(store.hit('a', 60_000, now)).rejects.toThrow();
      expect(store.redisCalls).toBe(1);
      for (let i = 0; i < 50; i++) {
        await expect(store.hit(`k${i}`, 60_000, now + i)).rejects.toBeInstanceOf(RateLimitStoreUnavailableError);
        await expect(store.peek(`k${i}`, 60_000, now + i)).rejects.toBeInstanceOf(RateLimitStoreUnavailableError);
      }
      expect(store.redisCalls).toBe(1);
      expect(store.isOpen(now + 29_999)).toBe(true);
      // After the open period one call tries Redis again; it fails and the breaker opens anew.
      await expect(store.hit('a', 60_000, now + 30_000)).rejects.not.toBeInstanceOf(RateLimitStoreUnavailableError);
      expect(store.redisCalls).toBe(2);
      expect(store.isOpen(now + 30_001)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('closes again when Redis answers', async () => {
    const store = new RedisRateLimitStore('redis://127.0.0.1:6379', { breakerOpenMs: 30_000 });
    try {
      const now = Date.now();
      expect((await store.hit(`ok-${now}`, 60_000, now)).count).toBe(1);
      expect(store.isOpen(now)).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('lets requests through (fail open) with REDIS_URL on a closed port', async () => {
    const t = await buildTestApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const { headers } = await t.tenant();
      for (let i = 0; i < 10; i++) {
        const res = await t.app.inject({ url: '/public/v1/enums', headers });
        expect(res.statusCode).toBe(200);
      }
      const unknown = await t.app.inject({ url: '/public/v1/enums', headers: { 'x-api-key': madeUpKey() } });
      expect(unknown.statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});
