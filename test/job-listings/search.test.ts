// GET /public/v1/job-listings?q=: search by position (as written or translated), with exact totals,
// page/size and cursor paging, and 422 on a bad q.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { positionContains } from '../../src/modules/job-listings/repo.ts';
import { jobListings } from '../../src/modules/job-listings/tables.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { api, MINIMAL } from './helpers.ts';

let t: TestApp;
let j: ReturnType<typeof api>;
let tenant: Tenant;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp();
  j = api(t);
  tenant = await t.tenant();
  for (const position of ['Senior Welder', 'welder apprentice', 'Crane operator', 'Pipe WELDER (night)', '100% remote_tester', 'Übersetzer']) {
    ids[position] = (await j.create(tenant.headers, { ...MINIMAL, position })).id;
  }
  await j.move(tenant.headers, ids['Senior Welder'], 'publish');
  await j.move(tenant.headers, ids['welder apprentice'], 'archive');
  // A human translation of the crane operator's position.
  const translated = await j.call('PUT', `/public/v1/job-listings/${ids['Crane operator']}/translations/de`, tenant.headers, { position: 'Kranführer' });
  expect(translated.statusCode).toBe(200);
  // Another company's welder never shows.
  await j.create((await t.tenant()).headers, { ...MINIMAL, position: 'Welder' });
});
afterAll(async () => t.close());

const list = (query: string) => j.call('GET', `/public/v1/job-listings?${query}`, tenant.headers);
const positions = async (query: string) => {
  const res = await list(query);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { id: string }[]).map((item) => Object.entries(ids).find(([, id]) => id === item.id)![0]);
};

describe('GET /public/v1/job-listings?q=', () => {
  it('matches part of the position, case-insensitively, newest first, with the exact total and the other filters', async () => {
    const res = await list('q=WeLdEr');
    expect(res.json().data.map((item: { position: { value: string } }) => item.position.value)).toEqual(['Pipe WELDER (night)', 'Senior Welder']);
    expect(res.json().pagination).toEqual({ page: 0, size: 20, totalElements: 2, totalPages: 1, nextCursor: null });
    // ARCHIVED only when asked for, as without q; status narrows further.
    expect(await positions('q=welder&status=ARCHIVED')).toEqual(['welder apprentice']);
    expect(await positions('q=welder&status=ACTIVE')).toEqual(['Senior Welder']);
    expect((await list('q=welder&status=ACTIVE')).json().pagination.totalElements).toBe(1);
    expect(await positions('q=%20%20welder%20')).toEqual(['Pipe WELDER (night)', 'Senior Welder']);
    expect(await positions('q=nobody')).toEqual([]);
    expect((await list('q=nobody')).json().pagination).toMatchObject({ totalElements: 0, totalPages: 0 });
  });

  it('matches a stored translation of the position too, whatever language the reader asks for', async () => {
    expect(await positions('q=kranf%C3%BChrer')).toEqual(['Crane operator']);
    const english = await j.call('GET', '/public/v1/job-listings?q=kran', { ...tenant.headers, 'accept-language': 'en' });
    expect(english.json().data).toEqual([expect.objectContaining({ position: { value: 'Crane operator', translated: false } })]);
    expect(await positions('q=%C3%BCbersetzer')).toEqual(['Übersetzer']);
  });

  it('treats % and _ as plain characters', async () => {
    expect(await positions('q=%25')).toEqual(['100% remote_tester']);
    expect(await positions('q=_')).toEqual(['100% remote_tester']);
    expect(await positions('q=0%25%20r')).toEqual(['100% remote_tester']);
    expect(await positions('q=e_t')).toEqual(['100% remote_tester']);
    expect(await positions('q=r%25')).toEqual([]);
  });

  it('pages by page/size and by cursor over the matches only; a cursor is bound to its q', async () => {
    const first = (await list('q=e&size=2')).json();
    expect(first.pagination).toMatchObject({ page: 0, size: 2, totalElements: 5, totalPages: 3 });
    const byPage = [...first.data, ...(await list('q=e&size=2&page=1')).json().data, ...(await list('q=e&size=2&page=2')).json().data];
    const byCursor = [...first.data];
    let cursor: string | null = first.pagination.nextCursor;
    while (cursor) {
      const next = await list(`q=e&size=2&cursor=${encodeURIComponent(cursor)}`);
      expect(next.statusCode, next.body).toBe(200);
      expect(next.json().pagination.totalElements).toBe(5);
      byCursor.push(...next.json().data);
      cursor = next.json().pagination.nextCursor;
    }
    expect(byCursor.map((item: { id: string }) => item.id)).toEqual(byPage.map((item: { id: string }) => item.id));
    expect(new Set(byCursor.map((item: { id: string }) => item.id)).size).toBe(5);
    // The same cursor with another q, or with none, is refused rather than answering a wrong page.
    for (const query of [`q=welder&size=2&cursor=${first.pagination.nextCursor}`, `size=2&cursor=${first.pagination.nextCursor}`]) {
      const res = await list(query);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ field: 'cursor' })] });
    }
  });

  it('combines q with status, updatedSince and a cursor in one page: the sync order, the exact total on every page', async () => {
    const query = 'q=e&status=ACTIVE&status=DRAFT&updatedSince=2000-01-01T00:00:00Z&size=2';
    const byPage = [];
    for (let page = 0; page < 3; page++) {
      const res = (await list(`${query}&page=${page}`)).json();
      expect(res.pagination).toMatchObject({ page, size: 2, totalElements: 5, totalPages: 3 });
      byPage.push(...res.data);
    }
    const first = (await list(query)).json();
    const byCursor = [...first.data];
    let cursor: string | null = first.pagination.nextCursor;
    while (cursor) {
      const next = (await list(`${query}&cursor=${encodeURIComponent(cursor)}`)).json();
      expect(next.pagination.totalElements).toBe(5);
      byCursor.push(...next.data);
      cursor = next.pagination.nextCursor;
    }
    expect(byCursor.map((item: { id: string }) => item.id)).toEqual(byPage.map((item: { id: string }) => item.id));
    expect(new Set(byCursor.map((item: { id: string }) => item.id))).toEqual(
      new Set(['Senior Welder', 'Crane operator', 'Pipe WELDER (night)', '100% remote_tester', 'Übersetzer'].map((position) => ids[position])),
    );
    expect(await positions('q=welder&status=ACTIVE&updatedSince=2000-01-01T00:00:00Z')).toEqual(['Senior Welder']);
    expect((await list('q=welder&updatedSince=2999-01-01T00:00:00Z')).json().pagination).toMatchObject({ totalElements: 0, totalPages: 0 });
  });

  it('answers 422 naming q when it is empty, blank or longer than 200 characters', async () => {
    for (const query of ['q=', 'q=%20%20%20', `q=${'a'.repeat(201)}`, 'q=a&q=b']) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json()).toMatchObject({ status: 422, error: 'VALIDATION_ERROR', details: [expect.objectContaining({ field: 'q' })] });
    }
    expect((await list(`q=${'a'.repeat(200)}`)).statusCode).toBe(200);
  });

  it('is answered by the trigram indexes of migration 0041 (position and its translations) once a company has many listings', async () => {
    // Thousands of listings and translations, in a transaction undone at the end: the plan the
    // search gets with them, not with the handful above (which any plan reads in no time).
    let plan: unknown;
    const undone = await t.database.db
      .transaction(async (tx) => {
        await queryRows(tx, sql`insert into job_listings (id, company_id, status, language, position, position_type, work_place_type, created_at, updated_at)
          select gen_random_uuid(), ${tenant.companyId}, 'ACTIVE', 'en', 'Filler position ' || i, 'FULL_TIME', 'REMOTE', now(), now() from generate_series(1, 20000) i`);
        await queryRows(tx, sql`insert into job_listing_translations (id, job_listing_id, language, field, source_text, text, translation_type, created_at)
          select gen_random_uuid(), id, 'de', 'position', position, 'Füllstelle ' || position, 'HUMAN', now() from job_listings where company_id = ${tenant.companyId} and position like 'Filler%'`);
        // What autovacuum does after a bulk insert: the GIN indexes' pending lists merged in.
        await queryRows(tx, sql`select gin_clean_pending_list('job_listings_company_position_trgm_idx'::regclass)`);
        await queryRows(tx, sql`select gin_clean_pending_list('job_listing_translations_position_trgm_idx'::regclass)`);
        await queryRows(tx, sql`analyze job_listings`);
        await queryRows(tx, sql`analyze job_listing_translations`);
        plan = await queryRows<Record<string, unknown>>(
          tx,
          sql`explain (format json) select count(*) from ${jobListings} where ${jobListings.companyId} = ${tenant.companyId} and ${jobListings.status} = 'ACTIVE'
            and ${positionContains(sql`${tenant.companyId}`, sql`${'%welder%'}`)}`,
        );
        tx.rollback();
      })
      .then(() => false, (error: unknown) => (error as Error).message === 'Rollback');
    expect(undone).toBe(true);
    const text = JSON.stringify(plan);
    expect(text).toContain('job_listings_company_position_trgm_idx');
    expect(text).toContain('job_listing_translations_position_trgm_idx');
  });
});
