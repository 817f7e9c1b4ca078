// Deep application pages start from the day their offset falls in (found from the kept per-day
// counts) instead of walking the offset: every such page must be exactly the page a plain OFFSET
// gives, unfiltered and by status, up to and past the end. Also: the seed's kept figures (it
// inserts whole histories at once) equal a recomputation.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { FUNNEL_STAGES } from '../../src/modules/applications/stages.ts';
import { seedBulk } from '../../src/tooling/demo/seed-bulk.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

/** A history row's funnel rank (stages.ts funnelRank) in SQL, to recompute the furthest stage from the history. */
const FUNNEL_RANK = sql.raw(`case h.to_status ${FUNNEL_STAGES.map((stage, rank) => `when '${stage}' then ${rank}`).join(' ')} end`);

let t: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.tenant();
  await seedBulk(t, { companyId: tenant.companyId, listings: 40, candidates: 400, applications: 6_000, clock: t.clock });
}, 120_000);
afterAll(async () => t?.close());

async function idsByOffset(status: string[] | undefined, offset: number, limit: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    t.database.db,
    sql`select id from applications where company_id = ${tenant.companyId}
        ${status ? sql`and status in (${sql.join(status.map((s) => sql`${s}`), sql`, `)})` : sql``}
        order by applied_at desc, id desc offset ${offset} limit ${limit}`,
  );
  return rows.map((row) => row.id);
}

it('a deep page is exactly the plain OFFSET page, unfiltered and by status, up to and past the end', async () => {
  const cases: Array<{ status?: string[]; size: number; pages: number[] }> = [
    { size: 20, pages: [99, 100, 101, 150, 200, 249, 299, 300, 301] },
    { size: 100, pages: [20, 33, 59, 60] },
    { size: 7, pages: [300, 301, 857] },
    { status: ['ACTIVE'], size: 20, pages: [100, 110, 119, 120, 121] },
    { status: ['REJECTED', 'HIRED'], size: 50, pages: [40, 42, 43] },
  ];
  for (const { status, size, pages } of cases) {
    for (const page of pages) {
      const query = new URLSearchParams({ page: String(page), size: String(size) });
      for (const s of status ?? []) query.append('status', s);
      const res = await t.app.inject({ method: 'GET', url: `/public/v1/applications?${query}`, headers: tenant.headers });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      const expected = await idsByOffset(status, page * size, size);
      expect(body.data.map((row: { id: string }) => row.id), `${query}`).toEqual(expected);
    }
  }
});

it('the seed leaves kept figures equal to a recomputation', async () => {
  const kept = await queryRows(
    t.database.db,
    sql`select status, sum(n)::int as n from company_counts where company_id = ${tenant.companyId} and resource = 'applications'
        group by 1 having sum(n) <> 0 order by 1`,
  );
  const counted = await queryRows(
    t.database.db,
    sql`select status, count(*)::int as n from applications where company_id = ${tenant.companyId} group by 1 order by 1`,
  );
  expect(kept).toEqual(counted);
  const furthest = await queryRows(
    t.database.db,
    sql`select count(*)::int as n from applications a where a.company_id = ${tenant.companyId} and a.furthest_stage <>
          (select max(${FUNNEL_RANK}) from application_status_history h where h.application_id = a.id)`,
  );
  expect(furthest).toEqual([{ n: 0 }]);
  const hires = await queryRows(
    t.database.db,
    sql`select count(*)::int as n from application_hires h join applications a on a.id = h.application_id
        where h.company_id = ${tenant.companyId} and a.status = 'HIRED'
          and h.hired_at = (select max(changed_at) from application_status_history s where s.application_id = a.id and s.to_status = 'HIRED')`,
  );
  const hired = await queryRows(
    t.database.db,
    sql`select count(*)::int as n from applications where company_id = ${tenant.companyId} and status = 'HIRED'`,
  );
  expect(hires).toEqual(hired);
});
