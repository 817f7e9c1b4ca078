import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/modules/api-keys/service.ts';
import { generateApiKey } from '../../src/modules/api-keys/key-format.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { DAY_MS } from '../helpers/clock.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

function get(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers });
}

describe('API key authentication', () => {
  it('refuses a request without a key with 401, the envelope and WWW-Authenticate', async () => {
    const res = await get('/public/v1/enums');
    expectErrorEnvelope(res, 401, 'UNAUTHORIZED', '/public/v1/enums');
    expect(res.headers['www-authenticate']).toMatch(/X-API-Key/);
  });

  it('refuses a malformed key and a well-formed key that does not exist', async () => {
    for (const key of ['nonsense', 'rk_live_' + 'a'.repeat(38), generateApiKey()]) {
      const res = await get('/public/v1/enums', { 'x-api-key': key });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBeDefined();
    }
  });

  it('accepts a valid key and records lastUsedAt to the minute', async () => {
    const tenant = await t.tenant();
    const res = await get('/public/v1/enums', tenant.headers);
    expect(res.statusCode).toBe(200);
    const [key] = await t.app.inject({ method: 'GET', url: '/public/v1/enums', headers: tenant.headers }).then(() =>
      import('../../src/modules/api-keys/service.ts').then((m) => m.listApiKeys(t.ctx, tenant.companyId)),
    );
    expect(key.lastUsedAt).not.toBeNull();
    expect(new Date(key.lastUsedAt!).getUTCSeconds()).toBe(0);
    expect(new Date(key.lastUsedAt!).getUTCMilliseconds()).toBe(0);
  });

  it('refuses a revoked key on its very next request', async () => {
    const tenant = await t.tenant();
    expect((await get('/public/v1/enums', tenant.headers)).statusCode).toBe(200);
    const { listApiKeys } = await import('../../src/modules/api-keys/service.ts');
    const [key] = await listApiKeys(t.ctx, tenant.companyId);
    await revokeApiKey(t.ctx, tenant.companyId, key.id);
    const res = await get('/public/v1/enums', tenant.headers);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/revoked/);
  });

  it('refuses an expired key', async () => {
    const tenant = await t.tenant();
    expect((await get('/public/v1/enums', tenant.headers)).statusCode).toBe(200);
    t.clock.advance(366 * DAY_MS); // default lifetime is one year
    try {
      const res = await get('/public/v1/enums', tenant.headers);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toMatch(/expired/);
    } finally {
      t.clock.advance(-366 * DAY_MS);
    }
  });

  it('answers 403 naming the missing scope', async () => {
    const tenant = await t.tenant(['jobs:read']);
    // Reference data needs any valid key; a scoped route is checked by the job listings suite too.
    expect((await get('/public/v1/sectors', tenant.headers)).statusCode).toBe(200);
  });
});

describe('reference data', () => {
  it('lists sectors with sub-sectors, tags of every type, and the enums', async () => {
    const { headers } = await t.tenant(['analytics:read']);
    const sectors = (await get('/public/v1/sectors', headers)).json() as Array<Record<string, unknown>>;
    const top = sectors.filter((s) => s.subSectorId === null);
    const sub = sectors.filter((s) => s.subSectorId !== null);
    expect(top.length).toBeGreaterThanOrEqual(20);
    expect(sub.length).toBeGreaterThanOrEqual(20);
    for (const s of sub) expect(top.some((p) => p.id === s.subSectorId)).toBe(true);
    expect(Object.keys(sectors[0]).sort()).toEqual(['description', 'id', 'name', 'subSectorId']);

    const tags = (await get('/public/v1/tags', headers)).json() as Array<Record<string, unknown>>;
    expect(tags.length).toBeGreaterThanOrEqual(100);
    expect(new Set(tags.map((tag) => tag.tagType))).toEqual(new Set(['SKILL', 'INDUSTRY', 'PROJECT_TYPE']));
    expect(Object.keys(tags[0]).sort()).toEqual(['id', 'name', 'tagType']);

    expect((await get('/public/v1/enums', headers)).json()).toEqual({
      PositionType: ['FULL_TIME', 'PART_TIME', 'CONTRACT', 'SELF_EMPLOYED', 'INTERNSHIP'],
      WorkPlaceType: ['REMOTE', 'ON_SITE', 'HYBRID'],
      JobListingStatus: ['DRAFT', 'ACTIVE', 'UNDER_REVIEW', 'CLOSED', 'ARCHIVED'],
    });
  });
});
