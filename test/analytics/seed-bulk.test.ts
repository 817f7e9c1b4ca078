import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { seedBulk, SeedBulkError } from '../../src/tooling/demo/seed-bulk.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { countEvents } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  const [row] = await queryRows<T>(t.database.db, query);
  return row;
}

describe('seedBulk', () => {
  it('fills a new company with consistent listings, candidates, applications and history', async () => {
    const progress: string[] = [];
    const result = await seedBulk(t, { listings: 20, candidates: 50, applications: 400, clock: t.clock, onProgress: (m) => progress.push(m) });
    expect(result).toMatchObject({ listings: 20, candidates: 50, applications: 400 });
    expect(progress).toEqual(['listings 20/20', 'candidates 50/50', 'applications 400/400']);
    const { companyId } = result;

    const listings = await queryRows<{ status: string; n: number }>(
      t.database.db,
      sql`select status, count(*)::int as n from job_listings where company_id = ${companyId} group by status order by status`,
    );
    expect(Object.fromEntries(listings.map((row) => [row.status, row.n]))).toEqual({ ACTIVE: 14, ARCHIVED: 1, CLOSED: 3, DRAFT: 2 });
    const now = t.clock.now();
    // No ACTIVE listing is past its expiry (the expiry sweep would close it at once).
    expect(await one(sql`select count(*)::int as n from job_listings where company_id = ${companyId} and status = 'ACTIVE' and expires_at <= ${now.toISOString()}::timestamptz`)).toEqual({ n: 0 });
    // Drafts took no applications.
    expect(await one(sql`select count(*)::int as n from applications a join job_listings l on l.id = a.job_listing_id where a.company_id = ${companyId} and l.status = 'DRAFT'`)).toEqual({ n: 0 });
    // Every application has a history whose last entry is its stage, at its updatedAt.
    expect(
      await one(sql`select count(*)::int as n from applications a
        where a.company_id = ${companyId} and not exists (
          select 1 from application_status_history h where h.application_id = a.id and h.to_status = a.status and h.changed_at = a.updated_at)`),
    ).toEqual({ n: 0 });
    expect(await one(sql`select count(*)::int as n from application_status_history where company_id = ${companyId} and from_status is null`)).toEqual({ n: 400 });
    expect(await one(sql`select count(*)::int as n from application_status_history where company_id = ${companyId}`)).toEqual({ n: result.statusHistory });
    expect(await one(sql`select count(*)::int as n from applications where company_id = ${companyId} and (applied_at > updated_at or updated_at > ${now.toISOString()}::timestamptz)`)).toEqual({ n: 0 });
    // Synthetic data fires no webhooks.
    expect(await countEvents(t, companyId)).toBe(0);

    // And it is all usable through the API.
    const headers = { 'x-api-key': await t.keyFor(companyId, ['applications:read', 'candidates:read', 'analytics:read']) };
    const apps = (await t.app.inject({ method: 'GET', url: '/public/v1/applications?size=5', headers })).json();
    expect(apps.pagination.totalElements).toBe(400);
    const detail = await t.app.inject({ method: 'GET', url: `/public/v1/applications/${apps.data[0].id}`, headers });
    expect(detail.statusCode).toBe(200);
    const search = (await t.app.inject({ method: 'GET', url: '/public/v1/candidates?q=ada', headers })).json();
    expect(search.pagination.totalElements).toBeGreaterThan(0);
    const overview = (await t.app.inject({ method: 'GET', url: '/public/v1/analytics/overview', headers })).json();
    expect(overview.totalApplications).toBe(400);
    expect(overview.hires).toBeGreaterThan(0);
    expect(overview.medianDaysToHire).toBeGreaterThan(0);
    expect(overview.funnel.map((s: { count: number }) => s.count)).toEqual([...overview.funnel.map((s: { count: number }) => s.count)].sort((a, b) => b - a));
  });

  it('seeds into an existing company, twice, without clashes', async () => {
    const tenant = await t.tenant();
    await seedBulk(t, { companyId: tenant.companyId, listings: 3, candidates: 10, applications: 27, clock: t.clock });
    await seedBulk(t, { companyId: tenant.companyId, listings: 3, candidates: 10, applications: 0, clock: t.clock });
    expect(await one(sql`select count(*)::int as n from candidates where company_id = ${tenant.companyId}`)).toEqual({ n: 20 });
    expect(await one(sql`select count(*)::int as n from applications where company_id = ${tenant.companyId}`)).toEqual({ n: 27 });
  });

  it('refuses impossible or invalid sizes before writing anything', async () => {
    const before = await one<{ n: number }>(sql`select count(*)::int as n from companies`);
    await expect(seedBulk(t, { listings: 2, candidates: 3, applications: 7 })).rejects.toThrow(SeedBulkError);
    await expect(seedBulk(t, { listings: 0, candidates: 3, applications: 1 })).rejects.toThrow(/at least one listing/);
    await expect(seedBulk(t, { listings: -1, candidates: 3, applications: 0 })).rejects.toThrow(/--listings/);
    await expect(seedBulk(t, { listings: 1, candidates: 1, applications: 0, companyId: '00000000-0000-4000-8000-000000000000' })).rejects.toThrow(/No company/);
    expect(await one(sql`select count(*)::int as n from companies`)).toEqual(before);
  });
});
