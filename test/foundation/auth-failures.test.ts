// Failed authentications are limited per client address and kind of credential (made-up keys each
// had a bucket of their own), without ever refusing a valid key or token for others' failures;
// X-Forwarded-For counts only from TRUST_PROXY; while Redis is out both limits count in the process
// (without a timeout on every request).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../src/config.ts';
import { pino } from 'pino';
import { RedisRateLimitStore } from '../../src/http/rate-limit-store.ts';
import { generateApiKey } from '../../src/modules/api-keys/key-format.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { dashboardBearer } from '../identity/oauth-client.ts';
import { startListeningApp, type ListeningApp } from '../identity/server.ts';

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

  it('answers 429 after the threshold, and only for that address; a valid key still goes through', async () => {
    const ip = freshIp();
    const statuses = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await t.app.inject({ url: '/public/v1/enums', remoteAddress: ip, headers: { 'x-api-key': madeUpKey() } })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const limited = await t.app.inject({ url: '/public/v1/enums', remoteAddress: ip, headers: { 'x-api-key': madeUpKey() } });
    expectErrorEnvelope(limited, 429, 'TOO_MANY_REQUESTS', '/public/v1/enums');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // A valid key from there still goes through: past the limit only a failing credential is
    // refused, a made-up one without a lookup (its checksum fails), a well-formed unknown one after it.
    const { headers } = await t.tenant();
    expect((await t.app.inject({ url: '/public/v1/enums', remoteAddress: ip, headers })).statusCode).toBe(200);
    const unknown = await t.app.inject({ url: '/public/v1/enums', remoteAddress: ip, headers: { 'x-api-key': generateApiKey() } });
    expectErrorEnvelope(unknown, 429, 'TOO_MANY_REQUESTS', '/public/v1/enums');
    expect(Number(unknown.headers['retry-after'])).toBeGreaterThan(0);
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

describe('failed authentications per client address and kind of credential', () => {
  let server: ListeningApp;
  let bearer: Record<string, string>;
  beforeAll(async () => {
    server = await startListeningApp({ DEV_SIGN_IN: 'true', AUTH_FAILURES_PER_MINUTE: '5' });
    bearer = await dashboardBearer(server, `office.${Date.now().toString(36)}@example.com`);
  });
  afterAll(async () => server?.close());

  const call = (url: string, ip: string, headers: Record<string, string>) => server.app.inject({ url, remoteAddress: ip, headers });

  it("an integration's failing keys do not lock out the dashboard behind the same address, nor valid keys", async () => {
    const office = freshIp();
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await call('/public/v1/enums', office, { 'x-api-key': madeUpKey() })).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);

    // The dashboard's token (another kind of credential) and a valid key go through.
    expect((await call('/settings/company', office, bearer)).statusCode).toBe(200);
    expect((await call('/public/v1/enums', office, bearer)).statusCode).toBe(200);
    const { headers } = await server.tenant();
    expect((await call('/public/v1/enums', office, headers)).statusCode).toBe(200);
    // A bad token from there is a 401 (its own count), so a dashboard still refreshes on it.
    const badToken = { authorization: `Bearer ${'x'.repeat(43)}` };
    const tokenFailures = [];
    for (let i = 0; i < 6; i++) tokenFailures.push((await call('/settings/company', office, badToken)).statusCode);
    expect(tokenFailures).toEqual([401, 401, 401, 401, 401, 429]);
    const refused = await call('/settings/company', office, badToken);
    expectErrorEnvelope(refused, 429, 'TOO_MANY_REQUESTS', '/settings/company');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Even then, a valid token is never refused for others' failures; calls without any
    // credential are counted apart.
    expect((await call('/settings/company', office, bearer)).statusCode).toBe(200);
    expect((await call('/public/v1/enums', office, {})).statusCode).toBe(401);
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

describe('Redis down: counted in the process', () => {
  const silent = pino({ level: 'silent' });

  it('asks a dead Redis once, then counts here without waiting, and only probes it every retryMs', async () => {
    const store = new RedisRateLimitStore('redis://127.0.0.1:1', { retryMs: 30_000, log: silent });
    try {
      const now = 60_000_000;
      expect(await store.hit('a', 60_000, now)).toMatchObject({ count: 1 });
      expect(store.redisCalls).toBe(1);
      for (let i = 2; i <= 50; i++) {
        // Synchronous answers: no request waits for Redis while it is out.
        expect(store.hit('a', 60_000, now + i)).toMatchObject({ count: i });
        expect(store.peek('a', 60_000, now + i)).toMatchObject({ count: i });
      }
      expect(store.redisCalls).toBe(1);
      // After retryMs one PING goes out in the background; the request is still counted here.
      expect(store.hit('a', 60_000, now + 30_000)).toMatchObject({ count: 51 });
      expect(store.hit('a', 60_000, now + 30_001)).toMatchObject({ count: 52 });
      expect(store.redisCalls).toBe(2);
    } finally {
      await store.close();
    }
  });

  it('counts in Redis when it answers', async () => {
    const store = new RedisRateLimitStore('redis://127.0.0.1:6379', { retryMs: 30_000, log: silent });
    try {
      const now = Date.now();
      expect(await store.hit(`ok-${now}`, 60_000, now)).toMatchObject({ count: 1 });
      expect(await store.hit(`ok-${now}`, 60_000, now)).toMatchObject({ count: 2 });
      expect(store.redisCalls).toBe(2);
    } finally {
      await store.close();
    }
  });

  it('keeps both limits with REDIS_URL on a closed port', async () => {
    const t = await buildTestApp({ REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_PER_MINUTE: '3', AUTH_FAILURES_PER_MINUTE: '2' });
    try {
      const now = t.clock.now().getTime();
      t.clock.advance(60_000 - (now % 60_000));
      const { headers } = await t.tenant();
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await t.app.inject({ url: '/public/v1/enums', headers })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const failures = [];
      for (let i = 0; i < 4; i++) {
        failures.push((await t.app.inject({ url: '/public/v1/enums', remoteAddress: freshIp(), headers: { 'x-api-key': madeUpKey() } })).statusCode);
      }
      expect(failures).toEqual([401, 401, 401, 401]);
      const ip = freshIp();
      for (let i = 0; i < 4; i++) {
        failures.push((await t.app.inject({ url: '/public/v1/enums', remoteAddress: ip, headers: { 'x-api-key': madeUpKey() } })).statusCode);
      }
      expect(failures.slice(4)).toEqual([401, 401, 429, 429]);
    } finally {
      await t.close();
    }
  });
});
