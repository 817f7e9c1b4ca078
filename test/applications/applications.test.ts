import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, queryStatement } from '../../src/db/client.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { applicant, countEvents, countRows, eventsOf, makeListing } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

function submit(tenant: Tenant, payload: unknown) {
  return t.app.inject({ method: 'POST', url: '/public/v1/applications', headers: tenant.headers, payload: payload as object });
}

function move(tenant: Tenant, id: string, payload: unknown) {
  return t.app.inject({
    method: 'PATCH',
    url: `/public/v1/applications/${id}/status`,
    headers: tenant.headers,
    payload: payload as object,
  });
}

function get(tenant: Tenant, url: string) {
  return t.app.inject({ method: 'GET', url, headers: tenant.headers });
}

/** A tenant with an ACTIVE listing and one submitted application. */
async function withApplication(email = 'ada@example.com') {
  const tenant = await t.tenant();
  const listingId = await makeListing(t, tenant.companyId);
  const res = await submit(tenant, { jobListingId: listingId, candidate: applicant(email) });
  expect(res.statusCode).toBe(201);
  return { tenant, listingId, application: res.json() as ApplicationBody };
}

interface ApplicationBody {
  id: string;
  jobListingId: string;
  jobSeekerId: string;
  appliedAt: string;
  updatedAt: string;
  candidate: Record<string, unknown>;
}

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('POST /public/v1/applications', () => {
  it('answers 201 with the application, its job listing and a new candidate; two events', async () => {
    const tenant = await t.tenant();
    const listingId = await makeListing(t, tenant.companyId, 'ACTIVE', 'Data engineer');
    const eventsBefore = await countEvents(t, tenant.companyId);
    const res = await submit(tenant, {
      jobListingId: listingId,
      candidate: { firstName: 'Ada', lastName: 'Lovelace', email: 'Ada@Example.com', phone: '+44 20 0000', headline: 'Analyst' },
      coverLetter: 'Dear team',
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-language']).toBe('en');
    const body = res.json();
    expect(body).toMatchObject({
      jobListingId: listingId,
      status: 'ACTIVE',
      source: 'EXTERNAL',
      coverLetter: 'Dear team',
      candidate: { firstName: 'Ada', lastName: 'Lovelace', email: 'Ada@Example.com', phone: '+44 20 0000', headline: 'Analyst' },
      jobListing: { id: listingId, status: 'ACTIVE', position: { value: 'Data engineer' } },
    });
    expect(body.jobSeekerId).toBe(body.candidate.id);
    expect(body.appliedAt).toBe(body.updatedAt);
    expect(Object.keys(body).sort()).toEqual(
      ['appliedAt', 'candidate', 'coverLetter', 'id', 'jobListing', 'jobListingId', 'jobSeekerId', 'rejectionReasonId', 'source', 'status', 'updatedAt'].sort(),
    );
    expect(Object.keys(body.candidate).sort()).toEqual(['email', 'firstName', 'headline', 'id', 'lastName', 'phone']);

    // A new candidate: candidate.created, then application.created; nothing else.
    expect(await countEvents(t, tenant.companyId)).toBe(eventsBefore + 2);
    const [created] = await eventsOf(t, tenant.companyId, 'application.created');
    expect(created.application).toMatchObject({ id: body.id, status: 'ACTIVE', jobSeekerId: body.jobSeekerId });
    const [candidateEvent] = await eventsOf(t, tenant.companyId, 'candidate.created');
    expect(candidateEvent.candidate).toMatchObject({ id: body.jobSeekerId, source: 'EXTERNAL' });
  });

  it('matches an existing candidate by email without letter case, leaving the profile as it was', async () => {
    const { tenant, application } = await withApplication('grace@example.com');
    const second = await makeListing(t, tenant.companyId);
    const eventsBefore = await countEvents(t, tenant.companyId);
    const res = await submit(tenant, {
      jobListingId: second,
      candidate: { firstName: 'G.', lastName: 'Hopper', email: 'GRACE@example.com', headline: 'Other' },
      source: 'REFERRAL',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ jobSeekerId: application.jobSeekerId, source: 'REFERRAL' });
    expect(res.json().candidate).toMatchObject({ firstName: 'Ada', email: 'grace@example.com', headline: null });
    expect(await countEvents(t, tenant.companyId)).toBe(eventsBefore + 1);
    expect(await countRows(t, 'candidates', tenant.companyId)).toBe(1);
  });

  it('answers 409 to a second application of the candidate to the listing, naming the first', async () => {
    const { tenant, listingId, application } = await withApplication('twice@example.com');
    const eventsBefore = await countEvents(t, tenant.companyId);
    const res = await submit(tenant, { jobListingId: listingId, candidate: applicant('TWICE@example.com') });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      status: 409,
      error: 'CONFLICT',
      details: [{ field: 'existingApplicationId', message: application.id }],
    });
    expect(await countEvents(t, tenant.companyId)).toBe(eventsBefore);
    expect(await countRows(t, 'applications', tenant.companyId)).toBe(1);
  });

  it('answers 409 for a listing that is not ACTIVE and writes nothing', async () => {
    const tenant = await t.tenant();
    for (const status of ['DRAFT', 'CLOSED', 'ARCHIVED'] as const) {
      const listingId = await makeListing(t, tenant.companyId, status);
      const eventsBefore = await countEvents(t, tenant.companyId);
      const res = await submit(tenant, { jobListingId: listingId, candidate: applicant(`${status}@example.com`) });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain(status);
      expect(await countEvents(t, tenant.companyId)).toBe(eventsBefore);
    }
    expect(await countRows(t, 'candidates', tenant.companyId)).toBe(0);
  });

  it('answers 422 for an unknown listing, another company\'s listing and invalid fields', async () => {
    const tenant = await t.tenant();
    const other = await t.tenant();
    const foreign = await makeListing(t, other.companyId);
    for (const jobListingId of [UNKNOWN_ID, foreign]) {
      const res = await submit(tenant, { jobListingId, candidate: applicant('x@example.com') });
      expect(res.statusCode).toBe(422);
      expect(res.json().details).toEqual([{ field: 'jobListingId', message: expect.any(String) }]);
    }
    const listingId = await makeListing(t, tenant.companyId);
    const res = await submit(tenant, {
      jobListingId: listingId,
      candidate: { firstName: 'A', email: 'nope', extra: 1 },
      source: 'CARRIER_PIGEON',
      unknown: true,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.map((d: { field: string }) => d.field).sort()).toEqual(
      ['candidate.email', 'candidate.extra', 'candidate.lastName', 'source', 'unknown'].sort(),
    );
    expect(await countRows(t, 'candidates', tenant.companyId)).toBe(0);
  });

  it('answers 400 to malformed JSON', async () => {
    const tenant = await t.tenant();
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/v1/applications',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      payload: '{"jobListingId":',
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('GET /public/v1/applications', () => {
  it('lists newest first and filters by jobListingId, status, candidateId and updatedSince', async () => {
    const tenant = await t.tenant();
    const l1 = await makeListing(t, tenant.companyId);
    const l2 = await makeListing(t, tenant.companyId);
    const a1 = (await submit(tenant, { jobListingId: l1, candidate: applicant('one@example.com') })).json();
    t.clock.advance(1000);
    const a2 = (await submit(tenant, { jobListingId: l1, candidate: applicant('two@example.com') })).json();
    t.clock.advance(1000);
    const a3 = (await submit(tenant, { jobListingId: l2, candidate: applicant('one@example.com') })).json();
    t.clock.advance(60_000);
    const since = t.clock.now().toISOString();
    await move(tenant, a1.id, { status: 'INTERVIEW' });

    const ids = async (query: string) => {
      const res = await get(tenant, `/public/v1/applications${query}`);
      expect(res.statusCode).toBe(200);
      return res.json().data.map((a: { id: string }) => a.id);
    };
    const all = (await get(tenant, '/public/v1/applications')).json();
    expect(all.pagination).toEqual({ page: 0, size: 20, totalElements: 3, totalPages: 1, nextCursor: null });
    expect(all.data.map((a: { id: string }) => a.id)).toEqual([a3.id, a2.id, a1.id]);
    expect(all.data[0].candidate).toMatchObject({ email: 'one@example.com' });
    expect(all.data[0]).not.toHaveProperty('jobListing');
    expect(await ids(`?jobListingId=${l1}`)).toEqual([a2.id, a1.id]);
    expect(await ids('?status=INTERVIEW')).toEqual([a1.id]);
    expect(await ids('?status=INTERVIEW&status=ACTIVE')).toEqual([a3.id, a2.id, a1.id]);
    expect(await ids(`?candidateId=${a1.jobSeekerId}`)).toEqual([a3.id, a1.id]);
    expect(await ids(`?updatedSince=${encodeURIComponent(since)}`)).toEqual([a1.id]);
    expect(await ids(`?jobListingId=${l1}&status=ACTIVE`)).toEqual([a2.id]);
    expect((await get(tenant, '/public/v1/applications?size=2&page=1')).json().data.map((a: { id: string }) => a.id)).toEqual([a1.id]);
    expect((await get(tenant, '/public/v1/applications?page=5')).json().data).toEqual([]);
    expect((await get(tenant, '/public/v1/applications?status=NEW')).statusCode).toBe(422);
    expect((await get(tenant, '/public/v1/applications?size=0')).statusCode).toBe(422);
  });
});

describe('GET /public/v1/applications: source and applied period', () => {
  /** Ids of one page, and the page's pagination. */
  async function page(tenant: Tenant, query: string) {
    const res = await get(tenant, `/public/v1/applications?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    return { ids: body.data.map((a: { id: string }) => a.id) as string[], pagination: body.pagination };
  }
  const at = (iso: string) => encodeURIComponent(iso);

  it('filters by source (repeatable) and by [appliedFrom, appliedTo), with the other filters, by page and by cursor; never another company\'s', async () => {
    const tenant = await t.tenant();
    const other = await t.tenant();
    const l1 = await makeListing(t, tenant.companyId);
    const l2 = await makeListing(t, tenant.companyId);
    const apply = async (listingId: string, email: string, source: string) => {
      const res = await submit(tenant, { jobListingId: listingId, source, candidate: applicant(email) });
      expect(res.statusCode).toBe(201);
      t.clock.advance(1_000);
      return res.json() as ApplicationBody & { source: string };
    };
    const a1 = await apply(l1, 'one@example.com', 'REFERRAL');
    const a2 = await apply(l1, 'two@example.com', 'JOB_BOARD');
    const a3 = await apply(l2, 'three@example.com', 'REFERRAL');
    const a4 = await apply(l2, 'four@example.com', 'AGENCY');
    const a5 = await apply(l1, 'five@example.com', 'REFERRAL');
    // Another company's REFERRAL application in the same period: never listed.
    const otherListing = await makeListing(t, other.companyId);
    expect((await submit(other, { jobListingId: otherListing, source: 'REFERRAL', candidate: applicant('one@example.com') })).statusCode).toBe(201);
    await move(tenant, a3.id, { status: 'INTERVIEW' });

    // Source: one, several (any of them), none matching.
    expect((await page(tenant, 'source=REFERRAL')).ids).toEqual([a5.id, a3.id, a1.id]);
    expect((await page(tenant, 'source=REFERRAL')).pagination.totalElements).toBe(3);
    expect((await page(tenant, 'source=AGENCY&source=JOB_BOARD')).ids).toEqual([a4.id, a2.id]);
    expect(await page(tenant, 'source=CAREERS_PAGE')).toEqual({ ids: [], pagination: expect.objectContaining({ totalElements: 0, totalPages: 0 }) });
    expect((await page(other, 'source=REFERRAL')).ids).toHaveLength(1);

    // The period: appliedFrom inclusive, appliedTo exclusive.
    expect((await page(tenant, `appliedFrom=${at(a2.appliedAt)}`)).ids).toEqual([a5.id, a4.id, a3.id, a2.id]);
    expect((await page(tenant, `appliedTo=${at(a2.appliedAt)}`)).ids).toEqual([a1.id]);
    expect((await page(tenant, `appliedFrom=${at(a2.appliedAt)}&appliedTo=${at(a4.appliedAt)}`)).ids).toEqual([a3.id, a2.id]);
    expect((await page(tenant, 'appliedFrom=2999-01-01T00:00:00Z')).pagination.totalElements).toBe(0);
    // A date-time with an offset is the same instant.
    const shifted = new Date(new Date(a2.appliedAt).getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00').replace('.000', '');
    expect((await page(tenant, `appliedFrom=${at(shifted)}&source=REFERRAL`)).ids).toEqual([a5.id, a3.id]);

    // With status and jobListingId: every filter at once.
    expect((await page(tenant, `source=REFERRAL&status=INTERVIEW`)).ids).toEqual([a3.id]);
    expect((await page(tenant, `source=REFERRAL&jobListingId=${l1}`)).ids).toEqual([a5.id, a1.id]);
    expect((await page(tenant, `source=REFERRAL&jobListingId=${l1}&appliedFrom=${at(a2.appliedAt)}&status=ACTIVE`)).ids).toEqual([a5.id]);
    expect((await page(tenant, `source=REFERRAL&candidateId=${a1.jobSeekerId}&appliedTo=${at(a2.appliedAt)}`)).ids).toEqual([a1.id]);

    // By page and by cursor, the filters' total on every page.
    const filters = `source=REFERRAL&source=AGENCY&appliedFrom=${at(a1.appliedAt)}`;
    const second = await page(tenant, `${filters}&size=2&page=1`);
    expect(second).toEqual({ ids: [a3.id, a1.id], pagination: expect.objectContaining({ totalElements: 4, totalPages: 2 }) });
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const next = await page(tenant, `${filters}&size=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(next.pagination.totalElements).toBe(4);
      walked.push(...next.ids);
      cursor = next.pagination.nextCursor;
    } while (cursor);
    expect(walked).toEqual([a5.id, a4.id, a3.id, a1.id]);
    // A cursor belongs to its filters: with others it is refused.
    const first = await page(tenant, `${filters}&size=1`);
    const moved = await get(tenant, `/public/v1/applications?source=REFERRAL&size=1&cursor=${encodeURIComponent(first.pagination.nextCursor)}`);
    expect(moved.statusCode).toBe(422);
    expect(moved.json()).toMatchObject({ status: 422, error: 'VALIDATION_ERROR', details: [expect.objectContaining({ field: 'cursor' })] });
  });

  it('answers 422 in the error envelope for an unknown source, a malformed or out-of-range time, and a period that is empty or reversed', async () => {
    const tenant = await t.tenant();
    const cases: Array<[string, string]> = [
      ['source=NOPE', 'source'],
      ['source=referral', 'source'],
      ['appliedFrom=yesterday', 'appliedFrom'],
      ['appliedFrom=2026-02-30T00:00:00Z', 'appliedFrom'],
      ['appliedFrom=2026-11-27', 'appliedFrom'],
      ['appliedTo=1800-01-01T00:00:00Z', 'appliedTo'],
      ['appliedTo=', 'appliedTo'],
      ['appliedFrom=2026-11-27T00:00:00Z&appliedTo=2026-11-26T00:00:00Z', 'appliedTo'],
      ['appliedFrom=2026-11-27T00:00:00Z&appliedTo=2026-11-27T00:00:00Z', 'appliedTo'],
      // The same instant written with two offsets is still an empty period.
      ['appliedFrom=2026-11-27T02:00:00%2B02:00&appliedTo=2026-11-27T00:00:00Z', 'appliedTo'],
    ];
    for (const [query, field] of cases) {
      const res = await get(tenant, `/public/v1/applications?${query}`);
      expect(res.statusCode, query).toBe(422);
      const body = res.json();
      expect(body, query).toMatchObject({ status: 422, error: 'VALIDATION_ERROR', path: '/public/v1/applications', details: [expect.objectContaining({ field: expect.stringMatching(new RegExp(`^${field}`)) })] });
      expect(typeof body.message).toBe('string');
    }
    expect((await get(tenant, '/public/v1/applications?appliedFrom=2026-11-27T00:00:00Z&appliedTo=2026-11-27T00:00:00.001Z')).statusCode).toBe(200);
  });

  it('q: only applications whose candidate matches the candidate search (name, e-mail prefix), with the other filters, by cursor; never another company\'s; erased ones never', async () => {
    const tenant = await t.tenant();
    const other = await t.tenant();
    const l1 = await makeListing(t, tenant.companyId);
    const l2 = await makeListing(t, tenant.companyId);
    const apply = async (who: Tenant, listingId: string, candidate: Record<string, string>, source: string) => {
      const res = await submit(who, { jobListingId: listingId, source, candidate });
      expect(res.statusCode).toBe(201);
      t.clock.advance(1_000);
      return res.json() as ApplicationBody;
    };
    const grace = { firstName: 'Grace', lastName: 'Hopper', email: 'ghopper@navy.example' };
    const hopper1 = await apply(tenant, l1, grace, 'REFERRAL');
    const ada = await apply(tenant, l1, { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@analytical.example' }, 'REFERRAL');
    const hopper2 = await apply(tenant, l2, grace, 'JOB_BOARD');
    const kelly = await apply(tenant, l2, { firstName: 'Grace', lastName: 'Kelly', email: 'gk@monaco.example' }, 'REFERRAL');
    // Another company's Grace Hopper: never listed for this one.
    await apply(other, await makeListing(t, other.companyId), grace, 'REFERRAL');
    await move(tenant, hopper2.id, { status: 'INTERVIEW' });
    const q = (text: string) => `q=${encodeURIComponent(text)}`;

    // By name, by e-mail prefix, every word as a word or its start; newest first, counted.
    expect(await page(tenant, q('grace'))).toEqual({ ids: [kelly.id, hopper2.id, hopper1.id], pagination: expect.objectContaining({ totalElements: 3 }) });
    expect((await page(tenant, q('Hopper'))).ids).toEqual([hopper2.id, hopper1.id]);
    expect((await page(tenant, q('ghop'))).ids).toEqual([hopper2.id, hopper1.id]);
    expect((await page(tenant, q('gra hop'))).ids).toEqual([hopper2.id, hopper1.id]);
    expect((await page(tenant, q('  lovelace '))).ids).toEqual([ada.id]);
    expect(await page(tenant, q('nobody'))).toEqual({ ids: [], pagination: expect.objectContaining({ totalElements: 0, totalPages: 0 }) });
    expect((await page(other, q('grace'))).pagination.totalElements).toBe(1);

    // With status, source and listing.
    expect((await page(tenant, `${q('grace')}&source=REFERRAL`)).ids).toEqual([kelly.id, hopper1.id]);
    expect((await page(tenant, `${q('grace')}&status=INTERVIEW`)).ids).toEqual([hopper2.id]);
    expect((await page(tenant, `${q('grace')}&jobListingId=${l2}&source=REFERRAL`)).ids).toEqual([kelly.id]);
    expect((await page(tenant, `${q('hopper')}&appliedFrom=${at(ada.appliedAt)}`)).ids).toEqual([hopper2.id]);

    // By cursor, the search's total on every page; the cursor belongs to its q.
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const next = await page(tenant, `${q('grace')}&size=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(next.pagination.totalElements).toBe(3);
      walked.push(...next.ids);
      cursor = next.pagination.nextCursor;
    } while (cursor);
    expect(walked).toEqual([kelly.id, hopper2.id, hopper1.id]);
    const first = await page(tenant, `${q('grace')}&size=1`);
    const moved = await get(tenant, `/public/v1/applications?${q('hopper')}&size=1&cursor=${encodeURIComponent(first.pagination.nextCursor)}`);
    expect(moved.statusCode).toBe(422);
    expect(moved.json()).toMatchObject({ details: [expect.objectContaining({ field: 'cursor' })] });

    // Blank, empty or too long: 422 naming q.
    for (const query of ['q=', 'q=%20%20%20', `q=${'a'.repeat(201)}`]) {
      const res = await get(tenant, `/public/v1/applications?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json()).toMatchObject({ status: 422, error: 'VALIDATION_ERROR', details: [expect.objectContaining({ field: 'q' })] });
    }

    // An erased candidate is no match (as in the candidate search); the application stays listed.
    expect((await t.app.inject({ method: 'DELETE', url: `/public/v1/candidates/${ada.jobSeekerId}`, headers: tenant.headers })).statusCode).toBe(204);
    expect((await page(tenant, q('lovelace'))).ids).toEqual([]);
    expect((await page(tenant, q('erased'))).ids).toEqual([]);
    expect((await page(tenant, `candidateId=${ada.jobSeekerId}`)).ids).toEqual([ada.id]);
  });

  it('is answered by indexes for a big company: the source index of migration 0044, and the applied-date index for a period', async () => {
    const tenant = await t.tenant();
    // 10,000 applications (100 listings x 100 candidates), 1 % of them REFERRAL, in a transaction
    // undone at the end: the plans they get, not the handful of rows above (any plan reads those in no time).
    const plans: Record<string, string> = {};
    const company = tenant.companyId;
    const undone = await t.database.db
      .transaction(async (tx) => {
        const explain = async (name: string, query: SQL) => {
          plans[name] = JSON.stringify(await queryRows(tx, sql`explain (format json) ${query}`));
        };
        await queryRows(tx, sql`insert into job_listings (id, company_id, status, language, position, position_type, work_place_type, created_at, updated_at)
          select gen_random_uuid(), ${company}, 'ACTIVE', 'en', 'Filler ' || i, 'FULL_TIME', 'REMOTE', now(), now() from generate_series(1, 100) i`);
        await queryRows(tx, sql`insert into candidates (id, company_id, first_name, last_name, email, source, created_at, updated_at)
          select gen_random_uuid(), ${company}, 'Filler', 'Person', 'filler' || i || '@example.com', 'EXTERNAL', now(), now() from generate_series(1, 100) i`);
        await queryRows(tx, sql`insert into applications (id, company_id, job_listing_id, candidate_id, status, source, applied_at, updated_at, furthest_stage)
          select gen_random_uuid(), ${company}, listing, candidate, 'ACTIVE', case when n % 100 = 0 then 'REFERRAL' else 'JOB_BOARD' end, now() - n * interval '1 hour', now(), 0
          from (select l.id as listing, c.id as candidate, row_number() over () as n from job_listings l cross join candidates c
                where l.company_id = ${company} and c.company_id = ${company}) pairs`);
        await queryRows(tx, sql`analyze applications`);
        const referral = sql`${company} and source = any(${'{REFERRAL}'}::text[])`;
        await explain('sourcePage', sql`select id from applications where company_id = ${referral} order by applied_at desc, id desc limit 21`);
        await explain('sourceCount', sql`select count(*) from applications where company_id = ${referral}`);
        const [from, to] = [48, 24].map((hours) => new Date(Date.now() - hours * 3_600_000).toISOString());
        await explain('periodCount', sql`select count(*) from applications where company_id = ${company} and applied_at >= ${from}::timestamptz and applied_at < ${to}::timestamptz`);
        tx.rollback();
      })
      .then(() => false, (error: unknown) => (error as Error).message === 'Rollback');
    expect(undone).toBe(true);
    expect(plans.sourcePage).toContain('applications_company_source_applied_idx');
    expect(plans.sourceCount).toContain('applications_company_source_applied_idx');
    expect(plans.periodCount).toContain('applications_company_applied_idx');
    expect(plans.sourceCount).not.toContain('Seq Scan');
  });
});

describe('GET /public/v1/applications/{id}', () => {
  it('answers the application with its embedded job listing and candidate', async () => {
    const { tenant, listingId, application } = await withApplication();
    const res = await get(tenant, `/public/v1/applications/${application.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-language']).toBe('en');
    expect(res.json()).toEqual(application);
    expect(res.json().jobListing.id).toBe(listingId);
  });

  it('answers 404 for an unknown id and for another company\'s application', async () => {
    const { application } = await withApplication();
    const other = await t.tenant();
    for (const url of [`/public/v1/applications/${application.id}`, `/public/v1/applications/${UNKNOWN_ID}`]) {
      const res = await get(other, url);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('NOT_FOUND');
    }
    expect((await get(other, '/public/v1/applications')).json().data).toEqual([]);
  });
});

describe('PATCH /public/v1/applications/{id}/status', () => {
  it('moves to the stage given, keeps the reason, answers the full application and emits one event', async () => {
    const { tenant, application } = await withApplication();
    const eventsBefore = await countEvents(t, tenant.companyId);
    t.clock.advance(5000);
    const res = await move(tenant, application.id, { status: 'INTERVIEW', reason: 'Strong portfolio' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: application.id, status: 'INTERVIEW', jobListing: { id: application.jobListingId }, candidate: application.candidate });
    expect(body.updatedAt > application.updatedAt).toBe(true);
    expect(body.appliedAt).toBe(application.appliedAt);
    expect(await countEvents(t, tenant.companyId)).toBe(eventsBefore + 1);
    const [event] = await eventsOf(t, tenant.companyId, 'application.status_changed');
    expect(event).toMatchObject({
      previousStatus: 'ACTIVE',
      newStatus: 'INTERVIEW',
      reason: 'Strong portfolio',
      application: { id: application.id, status: 'INTERVIEW', candidate: { email: 'ada@example.com' } },
    });
  });

  it('moves from any stage to any stage', async () => {
    const { tenant, application } = await withApplication();
    for (const status of ['HIRED', 'ACTIVE', 'REJECTED', 'OFFER', 'WITHDRAWN', 'IN_REVIEW']) {
      const res = await move(tenant, application.id, { status });
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe(status);
    }
    expect(await countEvents(t, tenant.companyId, 'application.status_changed')).toBe(6);
  });

  it('answers 200 without a change or an event for the same stage', async () => {
    const { tenant, application } = await withApplication();
    const eventsBefore = await countEvents(t, tenant.companyId);
    t.clock.advance(1000);
    const res = await move(tenant, application.id, { status: 'ACTIVE', reason: 'again' });
    expect(res.statusCode).toBe(200);
    expect(res.json().updatedAt).toBe(application.updatedAt);
    expect(await countEvents(t, tenant.companyId)).toBe(eventsBefore);
    expect((await get(tenant, `/public/v1/applications/${application.id}/history`)).json().pagination.totalElements).toBe(1);
  });

  it('guards with expectedStatus: 409 when the application is no longer there', async () => {
    const { tenant, application } = await withApplication();
    expect((await move(tenant, application.id, { status: 'IN_REVIEW', expectedStatus: 'ACTIVE' })).statusCode).toBe(200);
    const eventsBefore = await countEvents(t, tenant.companyId);
    const stale = await move(tenant, application.id, { status: 'INTERVIEW', expectedStatus: 'ACTIVE' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: 'CONFLICT', details: [{ field: 'expectedStatus', message: 'the application is in IN_REVIEW' }] });
    // Even asking for the stage it is in: the caller's view is stale.
    expect((await move(tenant, application.id, { status: 'IN_REVIEW', expectedStatus: 'ACTIVE' })).statusCode).toBe(409);
    expect(await countEvents(t, tenant.companyId)).toBe(eventsBefore);
    expect((await move(tenant, application.id, { status: 'INTERVIEW', expectedStatus: 'IN_REVIEW' })).statusCode).toBe(200);
  });

  it('lets exactly one of two concurrent moves with the same expectedStatus win', async () => {
    const { tenant, application } = await withApplication();
    const eventsBefore = await countEvents(t, tenant.companyId);
    const [a, b] = await Promise.all([
      move(tenant, application.id, { status: 'INTERVIEW', expectedStatus: 'ACTIVE' }),
      move(tenant, application.id, { status: 'REJECTED', expectedStatus: 'ACTIVE' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const winner = a.statusCode === 200 ? a.json() : b.json();
    expect((await get(tenant, `/public/v1/applications/${application.id}`)).json().status).toBe(winner.status);
    expect(await countEvents(t, tenant.companyId)).toBe(eventsBefore + 1);
    expect((await get(tenant, `/public/v1/applications/${application.id}/history`)).json().pagination.totalElements).toBe(2);
  });

  it('serializes concurrent unguarded moves: each recorded with the true previous stage', async () => {
    const { tenant, application } = await withApplication();
    const results = await Promise.all(
      ['IN_REVIEW', 'INTERVIEW', 'OFFER'].map((status) => move(tenant, application.id, { status })),
    );
    for (const res of results) expect(res.statusCode).toBe(200);
    const history = (await get(tenant, `/public/v1/applications/${application.id}/history?size=100`)).json().data.reverse();
    expect(history).toHaveLength(4);
    for (let i = 1; i < history.length; i++) expect(history[i].fromStatus).toBe(history[i - 1].toStatus);
    const events = await eventsOf(t, tenant.companyId, 'application.status_changed');
    expect(events).toHaveLength(3);
  });

  it('many concurrent moves of one application: each recorded once, after the one before, its event telling the same', async () => {
    const { tenant, application } = await withApplication();
    const stages = ['IN_REVIEW', 'INTERVIEW', 'OFFER', 'HIRED', 'REJECTED', 'WITHDRAWN', 'ACTIVE'];
    // Enough movers that some lose the optimistic race again and again and take the row lock.
    const results = await Promise.all(Array.from({ length: 14 }, (_, i) => move(tenant, application.id, { status: stages[i % stages.length] })));
    for (const res of results) expect(res.statusCode).toBe(200);
    const history = (await get(tenant, `/public/v1/applications/${application.id}/history?size=100`)).json().data.reverse();
    type Move = { fromStatus: string; toStatus: string; changedAt: string };
    const moves: Move[] = history.slice(1);
    // In time order each move starts where the one before ended (moves stamped in the same
    // millisecond may be listed either way round among themselves).
    let at: string = history[0].toStatus;
    const left = [...moves];
    while (left.length > 0) {
      const earliest = Math.min(...left.map((m) => Date.parse(m.changedAt)));
      const next = left.findIndex((m) => Date.parse(m.changedAt) === earliest && m.fromStatus === at);
      expect(next).toBeGreaterThanOrEqual(0);
      at = left.splice(next, 1)[0].toStatus;
    }
    const events = await eventsOf(t, tenant.companyId, 'application.status_changed');
    expect(events).toHaveLength(moves.length);
    // Each event carries its move: the stages and the application as the move left it.
    const byMove = new Map(moves.map((m) => [`${m.fromStatus}>${m.toStatus}@${m.changedAt}`, m]));
    for (const event of events as Array<{ previousStatus: string; newStatus: string; application: { status: string; updatedAt: string } }>) {
      const { previousStatus, newStatus, application: moved } = event;
      expect(moved.status).toBe(newStatus);
      expect(byMove.has(`${previousStatus}>${newStatus}@${moved.updatedAt}`)).toBe(true);
    }
    const now = (await get(tenant, `/public/v1/applications/${application.id}`)).json();
    expect(now.status).toBe(at);
    expect(now.updatedAt).toBe(moves.map((m) => m.changedAt).sort().at(-1));
  });

  it('answers 409 to a move whose application another session keeps changing, and writes nothing for it', async () => {
    const { tenant, application } = await withApplication();
    const eventsBefore = await countEvents(t, tenant.companyId);
    // Another writer changes the row between each try's read and its write (as an erasure could,
    // once), so every try finds the row no longer the version it read: the change is made when the
    // move reads the time, which it does between the two. PostgreSQL: another session (in a worker
    // thread) commits it before the time is answered. Embedded (one session, queries run in the
    // order asked): it is asked for before the move's write.
    const touch = `update applications set updated_at = updated_at where id = '${application.id}'`;
    const done = new Int32Array(new SharedArrayBuffer(4));
    const writer = t.databaseUrl
      ? new Worker(
          `const { parentPort, workerData } = require('node:worker_threads');
          const client = new (require('pg').Client)({ connectionString: workerData.url });
          const connected = client.connect();
          parentPort.on('message', async (text) => {
            await connected;
            await client.query(text);
            Atomics.add(workerData.done, 0, 1);
            Atomics.notify(workerData.done, 0);
          });`,
          { eval: true, workerData: { url: t.databaseUrl, done } },
        )
      : undefined;
    const now = t.clock.now;
    t.clock.now = () => {
      if (writer) {
        const before = Atomics.load(done, 0);
        writer.postMessage(touch);
        Atomics.wait(done, 0, before, 5_000);
      } else {
        void queryStatement(t.database.db, touch, []);
      }
      return now.call(t.clock);
    };
    const res = await move(tenant, application.id, { status: 'HIRED' }).finally(() => (t.clock.now = now));
    await writer?.terminate();
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'CONFLICT', message: expect.stringMatching(/moved concurrently.*read it again/) });
    expect((await get(tenant, `/public/v1/applications/${application.id}`)).json().status).toBe('ACTIVE');
    expect((await get(tenant, `/public/v1/applications/${application.id}/history`)).json().pagination.totalElements).toBe(1);
    expect(await countEvents(t, tenant.companyId)).toBe(eventsBefore);
    // Once the row is left alone, the same move goes through.
    expect((await move(tenant, application.id, { status: 'HIRED' })).statusCode).toBe(200);
  });

  it('answers 422 for an unknown stage, a missing status or unknown fields', async () => {
    const { tenant, application } = await withApplication();
    const unknown = await move(tenant, application.id, { status: 'PROMOTED' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'status', message: expect.stringContaining('IN_REVIEW') }] });
    expect((await move(tenant, application.id, {})).json().details).toEqual([{ field: 'status', message: 'is required' }]);
    expect((await move(tenant, application.id, { status: 'HIRED', note: 'x' })).json().details).toEqual([
      { field: 'note', message: 'is not a known field' },
    ]);
    expect((await move(tenant, application.id, { status: 'HIRED', expectedStatus: 'NEW' })).statusCode).toBe(422);
    expect(await countEvents(t, tenant.companyId, 'application.status_changed')).toBe(0);
  });

  it('answers 404 for an unknown id or another company\'s application, 400 for malformed JSON', async () => {
    const { tenant, application } = await withApplication();
    const other = await t.tenant();
    expect((await move(tenant, UNKNOWN_ID, { status: 'HIRED' })).statusCode).toBe(404);
    const foreign = await move(other, application.id, { status: 'HIRED' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('NOT_FOUND');
    const malformed = await t.app.inject({
      method: 'PATCH',
      url: `/public/v1/applications/${application.id}/status`,
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      payload: '{"status": HIRED}',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ status: 400, error: 'BAD_REQUEST' });
    expect((await get(tenant, `/public/v1/applications/${application.id}`)).json().status).toBe('ACTIVE');
  });
});

describe('GET /public/v1/applications/{id}/history', () => {
  it('lists every stage entered, newest first, the submission last', async () => {
    const { tenant, application } = await withApplication();
    t.clock.advance(1000);
    await move(tenant, application.id, { status: 'IN_REVIEW' });
    t.clock.advance(1000);
    await move(tenant, application.id, { status: 'REJECTED', reason: 'Position filled' });
    const res = await get(tenant, `/public/v1/applications/${application.id}/history`);
    expect(res.statusCode).toBe(200);
    const { data, pagination } = res.json();
    expect(pagination).toEqual({ page: 0, size: 20, totalElements: 3, totalPages: 1, nextCursor: null });
    expect(data.map((h: { fromStatus: string | null; toStatus: string }) => [h.fromStatus, h.toStatus])).toEqual([
      ['IN_REVIEW', 'REJECTED'],
      ['ACTIVE', 'IN_REVIEW'],
      [null, 'ACTIVE'],
    ]);
    expect(data[0]).toMatchObject({ applicationId: application.id, reason: 'Position filled', changedByApiKeyId: expect.any(String) });
    expect(data[2].changedAt).toBe(application.appliedAt);
  });

  it('answers 404 for an unknown id and for another company\'s application', async () => {
    const { application } = await withApplication();
    const other = await t.tenant();
    expect((await get(other, `/public/v1/applications/${application.id}/history`)).statusCode).toBe(404);
    expect((await get(other, `/public/v1/applications/${UNKNOWN_ID}/history`)).statusCode).toBe(404);
  });
});

describe('scopes', () => {
  it('requires applications:read to read and applications:write to submit and move (403 naming the scope)', async () => {
    const { tenant, listingId, application } = await withApplication();
    const reader = { ...tenant, headers: { 'x-api-key': await t.keyFor(tenant.companyId, ['applications:read']) } };
    const writer = { ...tenant, headers: { 'x-api-key': await t.keyFor(tenant.companyId, ['applications:write']) } };

    for (const url of [
      '/public/v1/applications',
      `/public/v1/applications/${application.id}`,
      `/public/v1/applications/${application.id}/history`,
    ]) {
      const res = await get(writer, url);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'FORBIDDEN', details: [{ field: 'scope', message: 'requires applications:read' }] });
      expect((await get(reader, url)).statusCode).toBe(200);
    }

    const submitted = await submit(reader, { jobListingId: listingId, candidate: applicant('scoped@example.com') });
    expect(submitted.statusCode).toBe(403);
    expect(submitted.json().details).toEqual([{ field: 'scope', message: 'requires applications:write' }]);
    const moved = await move(reader, application.id, { status: 'HIRED' });
    expect(moved.statusCode).toBe(403);
    expect(moved.json().message).toMatch(/applications:write/);

    expect((await submit(writer, { jobListingId: listingId, candidate: applicant('scoped@example.com') })).statusCode).toBe(201);
    expect((await move(writer, application.id, { status: 'HIRED' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/public/v1/applications' })).statusCode).toBe(401);
  });
});
