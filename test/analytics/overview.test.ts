import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveJobListing, closeJobListing } from '../../src/modules/job-listings/service.ts';
import { DAY_MS } from '../helpers/clock.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { applicant, makeListing } from '../helpers/factories.ts';

let t: TestApp;
let tenant: Tenant;
let l1: string;
let l2: string;
let submittedDay: string;

function overview(who: Tenant, query = '') {
  return t.app.inject({ method: 'GET', url: `/public/v1/analytics/overview${query}`, headers: who.headers });
}

async function submit(jobListingId: string, email: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/public/v1/applications',
    headers: tenant.headers,
    payload: { jobListingId, candidate: applicant(email) },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

async function move(id: string, status: string) {
  const res = await t.app.inject({ method: 'PATCH', url: `/public/v1/applications/${id}/status`, headers: tenant.headers, payload: { status } });
  expect(res.statusCode).toBe(200);
}

function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

// Twenty days ago five applications arrive; over the following days two are hired (after 10 and
// 20 days), one is rejected at once, one withdraws, one waits.
beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.tenant();
  t.clock.advance(-20 * DAY_MS);
  l1 = await makeListing(t, tenant.companyId);
  l2 = await makeListing(t, tenant.companyId);
  await makeListing(t, tenant.companyId, 'DRAFT');
  const closing = await makeListing(t, tenant.companyId);
  const archived = await makeListing(t, tenant.companyId);

  submittedDay = dayOf(t.clock.now());
  const [a1, a2, a3] = [await submit(l1, 'a1@example.com'), await submit(l1, 'a2@example.com'), await submit(l1, 'a3@example.com')];
  await submit(l1, 'a4@example.com');
  const a5 = await submit(l2, 'a5@example.com');
  await submit(closing, 'a6@example.com');
  await closeJobListing(t.ctx, tenant.companyId, closing);
  await archiveJobListing(t.ctx, tenant.companyId, archived);

  t.clock.advance(DAY_MS);
  await move(a1, 'IN_REVIEW');
  await move(a2, 'INTERVIEW');
  await move(a3, 'REJECTED');
  await move(a5, 'WITHDRAWN');
  t.clock.advance(4 * DAY_MS);
  await move(a1, 'OFFER');
  t.clock.advance(5 * DAY_MS);
  await move(a1, 'HIRED'); // 10 days after applying
  t.clock.advance(10 * DAY_MS);
  await move(a2, 'HIRED'); // 20 days after applying
  // Back to the present (the clock moved -20 + 1 + 4 + 5 + 10 days).
});
afterAll(async () => t.close());

describe('GET /public/v1/analytics/overview', () => {
  it('answers listings by status, applications by stage, per day, the funnel and the median days to hire', async () => {
    const res = await overview(tenant);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.filters).toEqual({ jobListingId: null, from: null, to: null });
    expect(body.jobListingsByStatus).toEqual({ DRAFT: 1, ACTIVE: 2, UNDER_REVIEW: 0, CLOSED: 1, ARCHIVED: 1 });
    expect(body.totalApplications).toBe(6);
    expect(body.applicationsByStage).toEqual({
      ACTIVE: 2,
      IN_REVIEW: 0,
      INTERVIEW: 0,
      OFFER: 0,
      HIRED: 2,
      REJECTED: 1,
      WITHDRAWN: 1,
    });

    expect(body.applicationsPerDay).toHaveLength(30);
    expect(body.applicationsPerDay[29].date).toBe(dayOf(t.clock.now()));
    expect(body.applicationsPerDay.find((d: { date: string }) => d.date === submittedDay)?.count).toBe(6);
    expect(body.applicationsPerDay.reduce((sum: number, d: { count: number }) => sum + d.count, 0)).toBe(6);

    // Reached: a1 and a2 went all the way (a2 skipped review); the others stayed at ACTIVE.
    expect(body.funnel).toEqual([
      { stage: 'ACTIVE', count: 6, conversionRate: null },
      { stage: 'IN_REVIEW', count: 2, conversionRate: 0.3333 },
      { stage: 'INTERVIEW', count: 2, conversionRate: 1 },
      { stage: 'OFFER', count: 2, conversionRate: 1 },
      { stage: 'HIRED', count: 2, conversionRate: 1 },
    ]);
    expect(body.hires).toBe(2);
    expect(body.medianDaysToHire).toBe(15);
  });

  it('narrows to one job listing', async () => {
    const body = (await overview(tenant, `?jobListingId=${l2}`)).json();
    expect(body.filters.jobListingId).toBe(l2);
    expect(body.jobListingsByStatus).toEqual({ DRAFT: 0, ACTIVE: 1, UNDER_REVIEW: 0, CLOSED: 0, ARCHIVED: 0 });
    expect(body.totalApplications).toBe(1);
    expect(body.applicationsByStage.WITHDRAWN).toBe(1);
    expect(body.funnel[0]).toEqual({ stage: 'ACTIVE', count: 1, conversionRate: null });
    expect(body.funnel[1]).toEqual({ stage: 'IN_REVIEW', count: 0, conversionRate: 0 });
    expect(body.funnel[2]).toEqual({ stage: 'INTERVIEW', count: 0, conversionRate: null });
    expect(body.hires).toBe(0);
    expect(body.medianDaysToHire).toBeNull();

    const first = (await overview(tenant, `?jobListingId=${l1}`)).json();
    expect(first.totalApplications).toBe(4);
    expect(first.medianDaysToHire).toBe(15);
  });

  it('selects applications by submission day with from and to; the series ends at to', async () => {
    const dayAfter = dayOf(new Date(new Date(submittedDay).getTime() + DAY_MS));
    const none = (await overview(tenant, `?from=${dayAfter}`)).json();
    expect(none.totalApplications).toBe(0);
    expect(none.funnel[0].count).toBe(0);
    expect(none.medianDaysToHire).toBeNull();
    // Listing counts are the current state: dates do not apply to them.
    expect(none.jobListingsByStatus.ACTIVE).toBe(2);

    const upTo = (await overview(tenant, `?from=${submittedDay}&to=${submittedDay}`)).json();
    expect(upTo.filters).toEqual({ jobListingId: null, from: submittedDay, to: submittedDay });
    expect(upTo.totalApplications).toBe(6);
    // The series covers the period asked for: here one day.
    expect(upTo.applicationsPerDay).toEqual([{ date: submittedDay, count: 6 }]);
    expect(upTo.medianDaysToHire).toBe(15);
  });

  it('spans applicationsPerDay from `from` to `to` (the period of the other figures), at most 367 days', async () => {
    const today = dayOf(t.clock.now());
    const daysBefore = (n: number) => dayOf(new Date(t.clock.now().getTime() - n * DAY_MS));
    for (const jobListingId of [undefined, l1]) {
      const narrowed = jobListingId ? `&jobListingId=${jobListingId}` : '';
      const forty = (await overview(tenant, `?from=${daysBefore(40)}&to=${today}${narrowed}`)).json();
      expect(forty.applicationsPerDay).toHaveLength(41);
      expect(forty.applicationsPerDay[0].date).toBe(daysBefore(40));
      expect(forty.applicationsPerDay.at(-1).date).toBe(today);
      expect(forty.applicationsPerDay.reduce((sum: number, d: { count: number }) => sum + d.count, 0)).toBe(forty.totalApplications);
      const long = (await overview(tenant, `?from=${daysBefore(1000)}&to=${today}${narrowed}`)).json();
      expect(long.applicationsPerDay).toHaveLength(367);
      expect(long.applicationsPerDay.at(-1).date).toBe(today);
    }
  });

  it('answers 422 for bad dates, to before from, and unknown parameters', async () => {
    for (const query of ['?from=yesterday', '?to=2024-13-01', '?from=2024-02-10&to=2024-02-01', '?jobListingId=x', '?group=day']) {
      const res = await overview(tenant, query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().error).toBe('VALIDATION_ERROR');
    }
    expect((await overview(tenant, '?from=2024-02-10&to=2024-02-01')).json().details).toEqual([
      { field: 'to', message: 'must not be before from' },
    ]);
  });

  it('shows another company nothing of this one', async () => {
    const other = await t.tenant();
    const body = (await overview(other)).json();
    expect(body.totalApplications).toBe(0);
    expect(Object.values(body.jobListingsByStatus).every((n) => n === 0)).toBe(true);
    expect(body.applicationsPerDay.every((d: { count: number }) => d.count === 0)).toBe(true);
    expect((await overview(other, `?jobListingId=${l1}`)).json().totalApplications).toBe(0);
  });

  it('requires analytics:read (403 naming the scope)', async () => {
    const key = await t.keyFor(tenant.companyId, ['applications:read', 'jobs:read', 'candidates:read']);
    const res = await t.app.inject({ method: 'GET', url: '/public/v1/analytics/overview', headers: { 'x-api-key': key } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'FORBIDDEN', details: [{ field: 'scope', message: 'requires analytics:read' }] });
    const reader = await t.keyFor(tenant.companyId, ['analytics:read']);
    expect((await t.app.inject({ method: 'GET', url: '/public/v1/analytics/overview', headers: { 'x-api-key': reader } })).statusCode).toBe(200);
  });
});

describe('applications by source, and GET /public/v1/analytics/job-listings', () => {
  let owner: Tenant;
  let a: string;
  let b: string;
  let closed: string;
  let ids: string[];
  let since: string;

  const counts = (who: Tenant, query: string) =>
    t.app.inject({ method: 'GET', url: `/public/v1/analytics/job-listings${query}`, headers: who.headers });
  const apply = async (jobListingId: string, email: string, source?: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/v1/applications',
      headers: owner.headers,
      payload: { jobListingId, candidate: applicant(email), ...(source ? { source } : {}) },
    });
    expect(res.statusCode).toBe(201);
    return res.json().id as string;
  };
  const moveTo = async (id: string, status: string) => {
    const res = await t.app.inject({ method: 'PATCH', url: `/public/v1/applications/${id}/status`, headers: owner.headers, payload: { status } });
    expect(res.statusCode).toBe(200);
  };

  // Two days ago: three applications to a, one to the listing closed since; today: two more to a, one to b.
  beforeAll(async () => {
    owner = await t.tenant();
    a = await makeListing(t, owner.companyId);
    b = await makeListing(t, owner.companyId);
    closed = await makeListing(t, owner.companyId);
    t.clock.advance(-2 * DAY_MS);
    ids = [
      await apply(a, 's1@example.com', 'REFERRAL'),
      await apply(a, 's2@example.com', 'REFERRAL'),
      await apply(a, 's3@example.com'),
      await apply(closed, 's4@example.com', 'AGENCY'),
    ];
    await closeJobListing(t.ctx, owner.companyId, closed);
    t.clock.advance(2 * DAY_MS);
    since = new Date(t.clock.now().getTime() - 60_000).toISOString();
    ids.push(await apply(a, 's5@example.com', 'JOB_BOARD'), await apply(a, 's6@example.com', 'CAREERS_PAGE'), await apply(b, 's7@example.com', 'REFERRAL'));
    await moveTo(ids[0], 'INTERVIEW');
    await moveTo(ids[1], 'REJECTED');
    await moveTo(ids[0], 'OFFER');
    await moveTo(ids[4], 'IN_REVIEW');
  });

  it('the overview counts applications by source for the period, the whole company or one listing', async () => {
    const all = (await overview(owner)).json();
    expect(all.applicationsBySource).toEqual({
      EXTERNAL: 1, INTERNAL: 0, REFERRAL: 3, AGENCY: 1, JOB_BOARD: 1, CAREER_SITE: 0, IMPORTED: 0, CAREERS_PAGE: 1,
    });
    const today = dayOf(t.clock.now());
    const recent = (await overview(owner, `?from=${today}&to=${today}`)).json();
    expect(recent.applicationsBySource).toMatchObject({ REFERRAL: 1, JOB_BOARD: 1, CAREERS_PAGE: 1, EXTERNAL: 0, AGENCY: 0 });
    const older = (await overview(owner, `?to=${dayOf(new Date(t.clock.now().getTime() - DAY_MS))}`)).json();
    expect(older.applicationsBySource).toMatchObject({ REFERRAL: 2, EXTERNAL: 1, AGENCY: 1, JOB_BOARD: 0 });
    const ofA = (await overview(owner, `?jobListingId=${a}`)).json();
    expect(ofA.applicationsBySource).toMatchObject({ REFERRAL: 2, EXTERNAL: 1, JOB_BOARD: 1, CAREERS_PAGE: 1, AGENCY: 0 });
    for (const body of [all, recent, older, ofA]) {
      expect(Object.values(body.applicationsBySource as Record<string, number>).reduce((sum, n) => sum + n, 0)).toBe(body.totalApplications);
    }
    expect(Object.values((await overview(await t.tenant())).json().applicationsBySource).every((n) => n === 0)).toBe(true);
  });

  it('answers each listing\'s applications by stage, in the order asked, after moves', async () => {
    const res = await counts(owner, `?jobListingId=${b}&jobListingId=${a}&jobListingId=${closed}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.since).toBeNull();
    expect(body.data.map((item: { jobListingId: string }) => item.jobListingId)).toEqual([b, a, closed]);
    const [ofB, ofA, ofClosed] = body.data;
    expect(ofA).toEqual({
      jobListingId: a,
      totalApplications: 5,
      applicationsByStage: { ACTIVE: 2, IN_REVIEW: 1, INTERVIEW: 0, OFFER: 1, HIRED: 0, REJECTED: 1, WITHDRAWN: 0 },
      newApplications: null,
    });
    expect(ofB.applicationsByStage.ACTIVE).toBe(1);
    expect(ofClosed.totalApplications).toBe(1);
    // A move changes the counts at once (they are kept in the move's transaction).
    await moveTo(ids[5], 'HIRED');
    const after = (await counts(owner, `?jobListingId=${a}`)).json().data[0];
    expect(after.applicationsByStage).toMatchObject({ ACTIVE: 1, HIRED: 1, OFFER: 1 });
    expect(after.totalApplications).toBe(5);
  });

  it('with since, counts the applications submitted since then per listing', async () => {
    const body = (await counts(owner, `?jobListingId=${a}&jobListingId=${b}&jobListingId=${closed}&since=${encodeURIComponent(since)}`)).json();
    expect(body.since).toBe(since);
    expect(body.data.map((item: { newApplications: number }) => item.newApplications)).toEqual([2, 1, 0]);
    const later = new Date(t.clock.now().getTime() + 1000).toISOString();
    const none = (await counts(owner, `?jobListingId=${a}&since=${encodeURIComponent(later)}`)).json();
    expect(none.data[0].newApplications).toBe(0);
  });

  it('leaves out ids that are not the company\'s listings: another company learns nothing', async () => {
    const other = await t.tenant();
    const res = await counts(other, `?jobListingId=${a}&jobListingId=${b}&since=${encodeURIComponent(since)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await counts(owner, `?jobListingId=${unknown}&jobListingId=${a}`)).json().data.map((item: { jobListingId: string }) => item.jobListingId)).toEqual([a]);
  });

  it('answers 422 for a missing or bad id, more than 100 ids, a bad since, unknown parameters; 403 without analytics:read', async () => {
    const many = Array.from({ length: 101 }, () => `jobListingId=${a}`).join('&');
    for (const [query, field] of [
      ['', 'jobListingId'],
      ['?jobListingId=x', 'jobListingId'],
      [`?${many}`, 'jobListingId'],
      [`?jobListingId=${a}&since=yesterday`, 'since'],
      [`?jobListingId=${a}&group=stage`, 'group'],
    ]) {
      const res = await counts(owner, query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().error).toBe('VALIDATION_ERROR');
      expect(res.json().details[0].field, query).toMatch(new RegExp(`^${field}`));
    }
    const key = await t.keyFor(owner.companyId, ['jobs:read']);
    const refused = await t.app.inject({ method: 'GET', url: `/public/v1/analytics/job-listings?jobListingId=${a}`, headers: { 'x-api-key': key } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'FORBIDDEN', details: [{ field: 'scope', message: 'requires analytics:read' }] });
  });
});
