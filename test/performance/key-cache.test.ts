// API keys are cached per server process; revocation must still hold at once on every server. A
// revocation's commit sends NOTIFY (migration 0016), every server drops its cache on hearing it,
// and the revoking call answers only after its own server heard it back. Two apps with their own
// pools and LISTEN connections on one PostgreSQL database stand for two servers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateApiKey, createApiKey, revokeApiKey } from '../../src/modules/api-keys/service.ts';
import { MemoryRateLimitStore } from '../../src/http/rate-limit-store.ts';
import { ALL_SCOPES } from '../../src/modules/api-keys/scopes.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

/** A real HTTP request when the app listens (as another server's would arrive), else injected. */
async function enums(t: TestApp, key: string) {
  const address = t.app.server.listening ? t.app.server.address() : null;
  if (address && typeof address === 'object') {
    const res = await fetch(`http://127.0.0.1:${address.port}/public/v1/enums`, { headers: { 'x-api-key': key } });
    const body = await res.text();
    return { statusCode: res.status, json: () => JSON.parse(body) };
  }
  return t.app.inject({ method: 'GET', url: '/public/v1/enums', headers: { 'x-api-key': key } });
}

describe('the API key cache', () => {
  let a: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    a = await buildTestApp();
    tenant = await a.tenant();
  });
  afterAll(async () => a?.close());

  it('refuses a cached key on the request right after its revocation', async () => {
    const key = await createApiKey(a.ctx, { companyId: tenant.companyId, label: 'cached', scopes: ALL_SCOPES });
    for (let i = 0; i < 3; i++) expect((await enums(a, key.rawKey)).statusCode).toBe(200);
    await revokeApiKey(a.ctx, tenant.companyId, key.id);
    const res = await enums(a, key.rawKey);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/revoked/);
  });

  // Nearly every request takes this path: a promise and a microtask turn each cost the
  // authenticated /enums a measurable share of its time (auth_overhead_ratio).
  it('answers a cached key whose use this minute is recorded without a promise, and the in-memory limit too', async () => {
    const key = await createApiKey(a.ctx, { companyId: tenant.companyId, label: 'sync', scopes: ALL_SCOPES });
    const first = authenticateApiKey(a.ctx, key.rawKey);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toMatchObject({ companyId: tenant.companyId, apiKeyId: key.id });
    const cached = authenticateApiKey(a.ctx, key.rawKey);
    expect(cached).not.toBeInstanceOf(Promise);
    expect(cached).toEqual({ companyId: tenant.companyId, scopes: key.scopes, apiKeyId: key.id });
    // Refusals are thrown (or rejected, after a read) as before.
    const refusal = async (rawKey: string) => authenticateApiKey(a.ctx, rawKey);
    await expect(refusal(`${key.rawKey.slice(0, -1)}${key.rawKey.endsWith('A') ? 'B' : 'A'}`)).rejects.toThrow('Invalid API key');
    await revokeApiKey(a.ctx, tenant.companyId, key.id);
    await expect(refusal(key.rawKey)).rejects.toThrow('revoked');

    const store = new MemoryRateLimitStore();
    expect(store.hit('k', 60_000, 0)).toEqual({ count: 1, resetMs: 60_000 });
    expect(store.peek('k', 60_000, 1_000)).toEqual({ count: 1, resetMs: 59_000 });
  });

  describe.skipIf(!onPostgres)('on two servers (PostgreSQL)', () => {
    let b: TestApp;
    beforeAll(async () => {
      b = await buildTestApp({}, { databaseUrl: a.databaseUrl! });
      // Requests reach both over the network, as they reach servers behind a load balancer.
      await a.app.listen({ port: 0, host: '127.0.0.1' });
      await b.app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => b?.close());

    it('a key revoked on one server is refused at once on the other, both ways, many times over', async () => {
      for (let round = 0; round < 10; round++) {
        const [revoker, other] = round % 2 === 0 ? [a, b] : [b, a];
        const key = await createApiKey(revoker.ctx, { companyId: tenant.companyId, label: `round ${round}`, scopes: ALL_SCOPES });
        // Both servers have it cached.
        for (const server of [a, b]) for (let i = 0; i < 3; i++) expect((await enums(server, key.rawKey)).statusCode).toBe(200);
        await revokeApiKey(revoker.ctx, tenant.companyId, key.id);
        const res = await enums(other, key.rawKey);
        expect(res.statusCode, `round ${round}`).toBe(401);
        expect((await enums(revoker, key.rawKey)).statusCode).toBe(401);
      }
    });
  });
});
