// The list pages' own statement path (src/db/statements.ts, queryStatement). The newest-first pages run
// as prepared statements planned once per session on PostgreSQL (`planOnce`, on the pool whose
// sessions force generic plans): PostgreSQL otherwise planned them again on every execution, half
// its time on a page. Everything else keeps PostgreSQL's own choice (a deep page's or a status
// filter's plan depends on its values). Their values are read as src/db/values.ts says, on both
// engines (test/foundation/driver-contract.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import { queryRows, queryStatement } from '../../src/db/client.ts';
import { jobListings } from '../../src/modules/job-listings/tables.ts';
import { makeListing } from '../helpers/factories.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

const PLAN_MODE = "select current_setting('plan_cache_mode') as mode";
const PLANNING = "select current_setting('plan_cache_mode') as mode, current_setting('jit') as jit";

let t: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.tenant();
});
afterAll(async () => t?.close());

describe.skipIf(!process.env.DATABASE_URL)('statements planned once (PostgreSQL)', () => {
  it('runs planOnce statements in sessions that keep one plan, the others with PostgreSQL choosing', async () => {
    // And without JIT: a plan made without knowing the limit looks costly enough to be compiled
    // on every execution.
    const planned = await queryStatement<{ mode: string; jit: string }>(t.ctx.db, PLANNING, [], { planOnce: true });
    expect(planned).toEqual([{ mode: 'force_generic_plan', jit: 'off' }]);
    expect(await queryStatement<{ mode: string }>(t.ctx.db, PLAN_MODE, [])).toEqual([{ mode: 'auto' }]);
    // Drizzle's queries share the main pool's sessions.
    expect(await queryRows(t.ctx.db, sql.raw(PLAN_MODE))).toEqual([{ mode: 'auto' }]);
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

  it("looks each application's candidate up by id, whatever the plan made once expects of the page's size", async () => {
    // Planned once, a page's limit is unknown to PostgreSQL (taken as a tenth of the company's
    // rows); as a plain join, the candidates were then hashed whole: every candidate of the company
    // read for a page of 20 (42 ms at 100,000). Here the planner is pushed the same way by taking
    // nested loops from it: the candidate must still be looked up row by row, never joined whole.
    const res = await t.app.inject({ url: '/public/v1/applications?size=20', headers: tenant.headers });
    expect(res.statusCode).toBe(200);
    const [prepared] = await queryStatement<{ statement: string }>(
      t.ctx.db,
      "select statement from pg_prepared_statements where statement like '%candidate_summaries%' and statement not like '%pg_prepared_statements%' limit 1",
      [],
      { planOnce: true },
    );
    expect(prepared).toBeDefined();
    const session = new pg.Client({ connectionString: t.databaseUrl });
    await session.connect();
    try {
      await session.query('set plan_cache_mode = force_generic_plan; set enable_nestloop = off');
      await session.query(`prepare page as ${prepared.statement}`);
      const { rows } = await session.query(`explain (format json) execute page(${prepared.statement.match(/\$\d+/g)!.map(() => 'null').join(', ')})`);
      const plan = JSON.stringify(rows);
      expect(plan).toContain('"Relation Name":"candidates"');
      expect(plan).not.toMatch(/"Node Type":"(Hash|Merge) Join"/);
    } finally {
      await session.end();
    }
  });
});

describe('fixed statements answer rows named by their columns', () => {
  it('a later column of the same name wins, and __proto__ is a column like any other', async () => {
    const text = `select 1 as a, 2 as b, 3 as a, 'x' as "__proto__", $1::text as "c d" union all select 4, 5, 6, 'y', $1`;
    // Twice: on PostgreSQL the second runs the statement prepared by the first.
    for (let i = 0; i < 2; i++) {
      const rows = await queryStatement<Record<string, unknown>>(t.ctx.db, text, ['"quoted"']);
      expect(rows.map((row) => ({ ...row }))).toEqual([
        { a: 3, b: 2, ['__proto__']: 'x', 'c d': '"quoted"' },
        { a: 6, b: 5, ['__proto__']: 'y', 'c d': '"quoted"' },
      ]);
      expect(rows.map((row) => Object.keys(row))).toEqual([
        ['a', 'b', '__proto__', 'c d'],
        ['a', 'b', '__proto__', 'c d'],
      ]);
      for (const row of rows) expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    }
  });
});

// A fixed statement's answer and a raw query's (queryRows): each column its type's value, in rows
// named by their columns.
describe('fixed statements and raw queries', () => {
  it('parse every column by its type, in the same statement twice', async () => {
    // (Timestamps differ by design: Drizzle reads them as text, the fixed statements as dates.)
    const text = `select 7::int4 as n, 2.5::float8 as ratio, '{"a":[1]}'::jsonb as doc, null::text as none, true as yes,
      'x' as "__proto__"`;
    const expected = { n: 7, ratio: 2.5, doc: { a: [1] }, none: null, yes: true, ['__proto__']: 'x' };
    for (let i = 0; i < 2; i++) {
      const [fixed] = await queryStatement<Record<string, unknown>>(t.ctx.db, text, []);
      const [raw] = await queryRows<Record<string, unknown>>(t.ctx.db, sql.raw(text));
      for (const row of [fixed, raw]) {
        expect({ ...row }).toEqual(expected);
        expect(Object.keys(row)).toEqual(Object.keys(expected));
        expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      }
    }
    // And Drizzle's own selects.
    const id = await makeListing(t, tenant.companyId, 'DRAFT', 'Cooper');
    const selected = await t.ctx.db.select({ id: jobListings.id, createdAt: jobListings.createdAt }).from(jobListings).where(eq(jobListings.id, id));
    expect(selected).toEqual([{ id, createdAt: expect.any(Date) }]);
  });
});

// The fixed statements also run inside a transaction (a demo seed moves applications in one): on
// the transaction's own connection, seeing its uncommitted rows, values parsed as outside.
describe('fixed statements in a transaction', () => {
  it("run on the transaction's connection and answer what they answer outside", async () => {
    const own = await t.tenant();
    const id = await makeListing(t, own.companyId, 'DRAFT', 'Glazier');
    const text = 'select id, position, created_at as "createdAt" from job_listings where company_id = $1 order by created_at';
    const outside = await queryStatement<{ id: string; position: string; createdAt: Date }>(t.ctx.db, text, [own.companyId]);
    const inside = await t.ctx.db.transaction(async (tx) => {
      await queryRows(tx, sql`update job_listings set position = 'Roofer' where id = ${id}`);
      return queryStatement<{ id: string; position: string; createdAt: Date }>(tx, text, [own.companyId]);
    }).catch((error: unknown) => error);
    expect(inside).toEqual([{ ...outside[0], position: 'Roofer' }]);
    expect(outside[0].createdAt).toBeInstanceOf(Date);
  });
});

// The candidates' search finds one company's matches in the index itself (migration 0022) and is
// planned once per session: the same answers, whichever company searched first.
describe("the candidates' search", () => {
  it("answers only the searching company's matches, many times over, whichever company asks", async () => {
    const small = await t.tenant();
    const big = await t.tenant();
    const people = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ firstName: 'Quillon', lastName: `${prefix}${i}`, email: `${prefix}${i}@example.com` }));
    for (const [tenantOf, candidates] of [[big, people('big', 40)], [small, people('small', 2)]] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/public/v1/candidates/import', headers: tenantOf.headers, payload: { candidates } });
      expect(res.statusCode).toBe(200);
    }
    // More executions than PostgreSQL's five custom plans before it weighs a generic one.
    for (let i = 0; i < 8; i++) {
      const [tenantOf, total] = i % 2 === 0 ? [big, 40] : [small, 2];
      const found = (await t.app.inject({ url: '/public/v1/candidates?q=quill&size=50', headers: tenantOf.headers })).json();
      expect(found.pagination.totalElements).toBe(total);
      expect(found.data.filter((c: { lastName: string }) => c.lastName.startsWith(total === 2 ? 'small' : 'big'))).toHaveLength(total);
    }
  });
});

// List pages read timestamps with their own parser (src/db/values.ts): the same instants, written
// the same way, as everywhere else, whatever the fraction of a second PostgreSQL holds.
describe('timestamps of list pages', () => {
  it('answer createdAt as the listing itself does, for every precision and year', async () => {
    // A company of its own: only these listings on its first page.
    const own = await t.tenant();
    const stored = ['2026-01-02 03:04:05+00', '2026-01-02 03:04:05.1+00', '2026-01-02 03:04:05.12+00', '2026-01-02 03:04:05.123456+00', '2026-12-31 23:59:59.999999+00', '0999-05-06 07:08:09.5+00'];
    for (const [i, at] of stored.entries()) {
      const id = await makeListing(t, own.companyId, 'DRAFT', `Fitter ${i}`);
      await queryRows(t.ctx.db, sql`update job_listings set created_at = ${at}::timestamptz where id = ${id}`);
    }
    const page = (await t.app.inject({ url: '/public/v1/job-listings?size=10', headers: own.headers })).json();
    const listed = page.data.map((item: { id: string; createdAt: string }) => [item.id, item.createdAt]);
    expect(listed.map(([, createdAt]: string[]) => createdAt)).toEqual([
      '2026-12-31T23:59:59.999Z',
      '2026-01-02T03:04:05.123Z',
      '2026-01-02T03:04:05.120Z',
      '2026-01-02T03:04:05.100Z',
      '2026-01-02T03:04:05.000Z',
      '0999-05-06T07:08:09.500Z',
    ]);
    for (const [id, createdAt] of listed) {
      const one = (await t.app.inject({ url: `/public/v1/job-listings/${id}`, headers: own.headers })).json();
      expect(one.createdAt).toBe(createdAt);
    }
    // The instants too: a cursor carries each page's last createdAt, and paging by it one listing at
    // a time meets every listing once, in the same order.
    const walked: string[] = [];
    for (let cursor: string | undefined, pages = 0; pages === 0 || (cursor && pages < 10); pages++) {
      const url = `/public/v1/job-listings?size=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const one = (await t.app.inject({ url, headers: own.headers })).json();
      walked.push(...one.data.map((item: { id: string }) => item.id));
      cursor = one.pagination.nextCursor;
    }
    expect(walked).toEqual(listed.map(([id]: string[]) => id));
  });
});
