// The newest-first list pages run as prepared statements planned once per session on PostgreSQL
// (`queryStatement` with `planOnce`, on the pool whose sessions force generic plans): PostgreSQL
// otherwise planned them again on every execution, half its time on a page. Everything else keeps
// PostgreSQL's own choice (a deep page's or a search's plan depends on its values).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryStatement } from '../../src/db/client.ts';
import { makeListing } from '../helpers/factories.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

const PLAN_MODE = "select current_setting('plan_cache_mode') as mode";

describe.skipIf(!process.env.DATABASE_URL)('statements planned once (PostgreSQL)', () => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await buildTestApp();
    tenant = await t.tenant();
  });
  afterAll(async () => t?.close());

  it('runs planOnce statements in sessions that keep one plan, the others with PostgreSQL choosing', async () => {
    const planned = await queryStatement<{ mode: string }>(t.ctx.db, PLAN_MODE, [], { planOnce: true });
    expect(planned).toEqual([{ mode: 'force_generic_plan' }]);
    expect(await queryStatement<{ mode: string }>(t.ctx.db, PLAN_MODE, [])).toEqual([{ mode: 'auto' }]);
    // Drizzle's queries share the main pool's sessions.
    expect((await t.ctx.db.execute(PLAN_MODE)).rows).toEqual([{ mode: 'auto' }]);
  });

  it('answers the same pages from the statements planned once, many times over', async () => {
    for (let i = 0; i < 3; i++) await makeListing(t, tenant.companyId, 'DRAFT', `Welder ${i}`);
    // More executions than PostgreSQL's five custom plans before it weighs a generic one.
    const pages = [];
    for (let i = 0; i < 8; i++) {
      const res = await t.app.inject({ url: '/public/v1/job-listings?size=2&page=1', headers: tenant.headers });
      expect(res.statusCode).toBe(200);
      pages.push(res.json());
    }
    expect(pages[0].data.map((item: { position: { value: string } }) => item.position.value)).toEqual(['Welder 0']);
    expect(pages[0].pagination).toMatchObject({ page: 1, size: 2, totalElements: 3, totalPages: 2 });
    for (const page of pages) expect(page).toEqual(pages[0]);
  });
});
