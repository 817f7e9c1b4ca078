import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

describe.each([
  ['in memory', {}],
  ['in Redis', { REDIS_URL: 'redis://127.0.0.1:6379' }],
])('rate limit per API key (%s)', (_name, env) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '3', ...env });
  });
  afterAll(async () => t.close());

  it('sends the policy on every response and refuses the request over the limit with 429', async () => {
    // Start at the top of a fresh minute so the window cannot roll over mid-test.
    const now = t.clock.now().getTime();
    t.clock.advance(60_000 - (now % 60_000) + 60_000 * Math.floor(Math.random() * 1000));
    const a = await t.tenant();
    const b = await t.tenant();
    for (let i = 1; i <= 3; i++) {
      const res = await t.app.inject({ url: '/public/v1/enums', headers: a.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"per-key";q=3;w=60');
      expect(res.headers.ratelimit).toMatch(new RegExp(`^"per-key";r=${3 - i};t=\\d+$`));
    }
    const over = await t.app.inject({ url: '/public/v1/enums', headers: a.headers });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ status: 429, error: 'TOO_MANY_REQUESTS', path: '/public/v1/enums' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['x-request-id']).toBeDefined();

    // Another key has its own budget.
    expect((await t.app.inject({ url: '/public/v1/enums', headers: b.headers })).statusCode).toBe(200);

    // The next window starts afresh.
    t.clock.advance(60_000);
    expect((await t.app.inject({ url: '/public/v1/enums', headers: a.headers })).statusCode).toBe(200);
  });

  it('limits calls without a key by client address', async () => {
    t.clock.advance(60_000 * 7);
    const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await t.app.inject({ url: '/public/v1/enums', remoteAddress: ip })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe('HTTPS in production mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    // app.inject comes from 127.0.0.1: the trusted proxy.
    t = await buildTestApp({ MODE: 'production', WEBHOOK_ALLOW_LOCAL: 'false', TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(async () => t.close());

  it('refuses plain-HTTP API calls with 403 HTTPS_REQUIRED', async () => {
    const { headers } = await t.tenant();
    const res = await t.app.inject({ url: '/public/v1/enums', headers });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ status: 403, error: 'HTTPS_REQUIRED' });
  });

  it('serves HTTPS (as told by a trusted proxy) with HSTS', async () => {
    const { headers } = await t.tenant();
    const res = await t.app.inject({
      url: '/public/v1/enums',
      headers: { ...headers, 'x-forwarded-proto': 'https', 'x-request-id': randomUUID() },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('does not believe X-Forwarded-Proto from a client that is not a trusted proxy', async () => {
    const { headers } = await t.tenant();
    const res = await t.app.inject({
      url: '/public/v1/enums',
      remoteAddress: '203.0.113.9',
      headers: { ...headers, 'x-forwarded-proto': 'https' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ status: 403, error: 'HTTPS_REQUIRED' });
  });

  it('still answers platform probes over plain HTTP', async () => {
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});
