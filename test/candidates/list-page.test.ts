// The candidates page is one statement for every filter and ordering (candidates/repo.ts,
// pageStatement): newest first, searched (q), changed since (updatedSince), and both filters at
// once; each with its total, its cursor, and erased candidates left out. And candidate_summaries,
// the view other modules' statements read a candidate's summary from (migration 0030).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let tenant: Tenant;
const ids: Record<string, string> = {};
let since: string;

interface ListAnswer {
  data: Array<{ id: string; email: string; updatedAt: string }>;
  pagination: { totalElements: number; nextCursor: string | null };
}

async function list(query: string): Promise<ListAnswer> {
  const res = await t.app.inject({ url: `/public/v1/candidates?${query}`, headers: tenant.headers });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Every page of a list, following nextCursor: the emails in order, and each page's total. */
async function walk(query: string): Promise<{ emails: string[]; totals: number[] }> {
  const emails: string[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  do {
    const page: ListAnswer = await list(`${query}&size=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    emails.push(...page.data.map((c) => c.email.split('@')[0]));
    totals.push(page.pagination.totalElements);
    cursor = page.pagination.nextCursor;
  } while (cursor);
  return { emails, totals };
}

const importRows = (rows: object[]) =>
  t.app.inject({ method: 'POST', url: '/public/v1/candidates/import', headers: tenant.headers, payload: { candidates: rows } });

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.tenant();
  const person = (name: string, skills: string[]) => ({ firstName: name, lastName: 'Tester', email: `${name}@example.com`, skills });
  const add = async (name: string, skills: string[]) => {
    t.clock.advance(1_000);
    ids[name] = (await importRows([person(name, skills)])).json().results[0].candidateId;
  };
  await add('old1', ['Rust']);
  await add('old2', ['Go']);
  await add('gone', ['Rust']);
  t.clock.advance(60_000);
  since = encodeURIComponent(t.clock.now().toISOString());
  await add('new1', ['Rust']);
  await add('new2', ['Go']);
  await add('new3', ['Rust', 'Go']);
  // old1 changes after the others: first in no newest-first order, last in the change order.
  t.clock.advance(1_000);
  await importRows([person('old1', ['Rust', 'Zig'])]);
  const erased = await t.app.inject({ method: 'DELETE', url: `/public/v1/candidates/${ids.gone}`, headers: tenant.headers });
  expect(erased.statusCode).toBe(204);
});
afterAll(async () => t?.close());

describe('the candidates page, one statement for every shape', () => {
  it('newest first: every page, the kept total, no erased candidate', async () => {
    expect(await walk('')).toEqual({ emails: ['new3', 'new2', 'new1', 'old2', 'old1'], totals: [5, 5, 5] });
  });

  it('searched: by relevance, the matches counted', async () => {
    const { emails, totals } = await walk('q=rust');
    expect(emails.sort()).toEqual(['new1', 'new3', 'old1']);
    expect(totals).toEqual([3, 3]);
  });

  it('changed since: in change order, the changed ones counted', async () => {
    expect(await walk(`updatedSince=${since}`)).toEqual({ emails: ['new1', 'new2', 'new3', 'old1'], totals: [4, 4] });
  });

  it('searched and changed since at once: both filters, in change order, counted together', async () => {
    expect(await walk(`q=rust&updatedSince=${since}`)).toEqual({ emails: ['new1', 'new3', 'old1'], totals: [3, 3] });
    expect(await walk(`q=go&updatedSince=${since}`)).toEqual({ emails: ['new2', 'new3'], totals: [2] });
    expect(await walk(`q=nobody&updatedSince=${since}`)).toEqual({ emails: [], totals: [0] });
  });

  it('answers the total on a page past the end, in every shape', async () => {
    for (const [query, total] of [['', 5], ['q=rust', 3], [`updatedSince=${since}`, 4], [`q=rust&updatedSince=${since}`, 3]] as const) {
      const page = await list(`${query}&size=2&page=7`);
      expect(page.data).toEqual([]);
      expect(page.pagination.totalElements).toBe(total);
    }
  });
});

describe('candidate_summaries (the view other modules read summaries from)', () => {
  it("answers each candidate's summary, the erased one anonymized, within its company", async () => {
    const rows = await queryRows<Record<string, unknown>>(
      t.ctx.db,
      sql`select * from candidate_summaries where company_id = ${tenant.companyId} and id in (${ids.new1}, ${ids.gone}) order by email`,
    );
    expect(rows).toEqual([
      { id: ids.gone, company_id: tenant.companyId, first_name: 'Erased', last_name: 'Candidate', headline: null, email: `erased-${ids.gone}@erased.invalid`, phone: null },
      { id: ids.new1, company_id: tenant.companyId, first_name: 'new1', last_name: 'Tester', headline: null, email: 'new1@example.com', phone: null },
    ]);
    const other = await t.tenant();
    expect(await queryRows(t.ctx.db, sql`select id from candidate_summaries where company_id = ${other.companyId}`)).toEqual([]);
  });
});
