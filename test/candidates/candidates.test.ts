import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { applicant, countEvents, countRows, eventsOf, makeListing } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

function importCandidates(tenant: Tenant, payload: unknown) {
  return t.app.inject({ method: 'POST', url: '/public/v1/candidates/import', headers: tenant.headers, payload: payload as object });
}

function get(tenant: Tenant, url: string) {
  return t.app.inject({ method: 'GET', url, headers: tenant.headers });
}

describe('POST /public/v1/candidates/import', () => {
  it('creates candidates and answers one result per row, with one candidate.created event each', async () => {
    const tenant = await t.tenant();
    const res = await importCandidates(tenant, {
      candidates: [
        applicant('ada@example.com', { headline: 'Analyst', skills: ['Mathematics'], links: ['https://ada.example.com'] }),
        { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phone: '+1 555 0100', location: 'Arlington, US' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ created: 2, updated: 0, applicationsCreated: 0 });
    expect(body.results).toEqual([
      expect.objectContaining({ index: 0, email: 'ada@example.com', result: 'created', applicationId: null, applicationResult: null }),
      expect.objectContaining({ index: 1, email: 'grace@example.com', result: 'created', applicationId: null, applicationResult: null }),
    ]);
    expect(await countEvents(t, tenant.companyId)).toBe(2);
    const events = await eventsOf(t, tenant.companyId, 'candidate.created');
    expect(events.map((event) => (event.candidate as { email: string }).email).sort()).toEqual(['ada@example.com', 'grace@example.com']);

    const profile = (await get(tenant, `/public/v1/candidates/${body.results[0].candidateId}`)).json();
    expect(profile).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      headline: 'Analyst',
      phone: null,
      location: null,
      skills: ['Mathematics'],
      links: ['https://ada.example.com'],
      source: 'IMPORTED',
      applications: [],
    });
  });

  it('upserts by email without letter case: a known email updates, keeping fields the row leaves out, and emits nothing', async () => {
    const tenant = await t.tenant();
    const first = await importCandidates(tenant, {
      candidates: [applicant('Mixed.Case@Example.com', { headline: 'Engineer', phone: '123', skills: ['Go'] })],
    });
    const id = first.json().results[0].candidateId;
    const eventsBefore = await countEvents(t, tenant.companyId);

    const second = await importCandidates(tenant, {
      candidates: [
        { firstName: 'Ada', lastName: 'King', email: 'mixed.case@example.COM', headline: 'Staff engineer' },
        applicant('new@example.com'),
      ],
    });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ created: 1, updated: 1 });
    expect(second.json().results[0]).toMatchObject({ index: 0, candidateId: id, result: 'updated' });
    expect(second.json().results[1]).toMatchObject({ index: 1, result: 'created' });
    // The update emits nothing (there is no candidate.updated event); the new candidate emits one.
    expect(await countEvents(t, tenant.companyId)).toBe(eventsBefore + 1);

    const profile = (await get(tenant, `/public/v1/candidates/${id}`)).json();
    expect(profile).toMatchObject({ lastName: 'King', headline: 'Staff engineer', phone: '123', skills: ['Go'] });
    expect(await countRows(t, 'candidates', tenant.companyId)).toBe(2);
  });

  it('is all or nothing: one bad row answers 422 naming it and writes nothing', async () => {
    const tenant = await t.tenant();
    const rows = [0, 1, 2, 3, 4].map((i) => applicant(`row${i}@example.com`));
    rows[3] = applicant('not-an-email');
    const res = await importCandidates(tenant, { candidates: rows });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('VALIDATION_ERROR');
    expect(res.json().details).toEqual([{ field: 'candidates[3].email', message: expect.any(String) }]);
    expect(await countRows(t, 'candidates', tenant.companyId)).toBe(0);
    expect(await countEvents(t, tenant.companyId)).toBe(0);
  });

  it('names every bad field, unknown fields and missing ones included', async () => {
    const tenant = await t.tenant();
    const res = await importCandidates(tenant, {
      candidates: [applicant('a@example.com'), { firstName: 'B', email: 'b@example.com', nickname: 'x' }, applicant('c@example.com', { links: ['not a url'] })],
    });
    expect(res.statusCode).toBe(422);
    const fields = res.json().details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['candidates[1].lastName', 'candidates[1].nickname', 'candidates[2].links[0]']);
    expect(await countRows(t, 'candidates', tenant.companyId)).toBe(0);
  });

  it('refuses an email repeated within the request', async () => {
    const tenant = await t.tenant();
    const res = await importCandidates(tenant, {
      candidates: [applicant('same@example.com'), applicant('other@example.com'), applicant('SAME@example.com')],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'candidates[2].email', message: 'repeats the email of candidates[0]' }]);
    expect(await countRows(t, 'candidates', tenant.companyId)).toBe(0);
  });

  it('takes 1,000 rows and refuses 1,001 or none', async () => {
    const tenant = await t.tenant();
    const rows = (n: number) => Array.from({ length: n }, (_, i) => applicant(`bulk${i}@example.com`, { skills: ['SQL'] }));
    const tooMany = await importCandidates(tenant, { candidates: rows(1001) });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().details).toEqual([{ field: 'candidates', message: expect.stringMatching(/1000/) }]);
    expect((await importCandidates(tenant, { candidates: [] })).statusCode).toBe(422);
    expect(await countRows(t, 'candidates', tenant.companyId)).toBe(0);

    const res = await importCandidates(tenant, { candidates: rows(1000) });
    expect(res.statusCode).toBe(200);
    expect(res.json().created).toBe(1000);
    expect(res.json().results).toHaveLength(1000);
    expect(res.json().results[999]).toMatchObject({ index: 999, email: 'bulk999@example.com' });
    expect(await countRows(t, 'candidates', tenant.companyId)).toBe(1000);
    expect(await countEvents(t, tenant.companyId, 'candidate.created')).toBe(1000);
  });

  it('with jobListingId adds every candidate to that pipeline (source IMPORTED), once', async () => {
    const tenant = await t.tenant();
    const listingId = await makeListing(t, tenant.companyId);
    const eventsBefore = await countEvents(t, tenant.companyId);
    const res = await importCandidates(tenant, {
      jobListingId: listingId,
      candidates: [applicant('p1@example.com'), applicant('p2@example.com')],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ created: 2, applicationsCreated: 2 });
    for (const row of res.json().results) expect(row).toMatchObject({ applicationId: expect.any(String), applicationResult: 'created' });
    // Two candidate.created and two application.created.
    expect(await countEvents(t, tenant.companyId)).toBe(eventsBefore + 4);

    const apps = (await get(tenant, `/public/v1/applications?jobListingId=${listingId}`)).json();
    expect(apps.pagination.totalElements).toBe(2);
    for (const app of apps.data) expect(app).toMatchObject({ source: 'IMPORTED', status: 'ACTIVE', jobListingId: listingId });

    // Importing again: candidates updated, applications already there, nothing new emitted.
    const again = await importCandidates(tenant, {
      jobListingId: listingId,
      candidates: [applicant('p1@example.com'), applicant('p3@example.com')],
    });
    expect(again.json()).toMatchObject({ created: 1, updated: 1, applicationsCreated: 1 });
    expect(again.json().results[0]).toMatchObject({ result: 'updated', applicationResult: 'existing', applicationId: res.json().results[0].applicationId });
    expect(await countEvents(t, tenant.companyId)).toBe(eventsBefore + 6);
  });

  it('refuses a listing that is not ACTIVE (409) or unknown (422), writing nothing', async () => {
    const tenant = await t.tenant();
    const other = await t.tenant();
    const draft = await makeListing(t, tenant.companyId, 'DRAFT');
    const foreign = await makeListing(t, other.companyId);
    const conflict = await importCandidates(tenant, { jobListingId: draft, candidates: [applicant('x@example.com')] });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().message).toMatch(/DRAFT/);
    const unknown = await importCandidates(tenant, { jobListingId: foreign, candidates: [applicant('x@example.com')] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details).toEqual([{ field: 'jobListingId', message: expect.any(String) }]);
    expect(await countRows(t, 'candidates', tenant.companyId)).toBe(0);
  });

  it('answers 400 to malformed JSON', async () => {
    const tenant = await t.tenant();
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/v1/candidates/import',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      payload: '{"candidates": [',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('BAD_REQUEST');
  });
});

describe('GET /public/v1/candidates', () => {
  it('lists newest first in the pagination envelope, with updatedSince', async () => {
    const tenant = await t.tenant();
    await importCandidates(tenant, { candidates: [applicant('old@example.com')] });
    t.clock.advance(60_000);
    const since = t.clock.now().toISOString();
    await importCandidates(tenant, { candidates: [applicant('new1@example.com'), applicant('new2@example.com')] });

    const page = (await get(tenant, '/public/v1/candidates?size=2')).json();
    expect(page.pagination).toEqual({ page: 0, size: 2, totalElements: 3, totalPages: 2, nextCursor: expect.any(String) });
    expect(page.data).toHaveLength(2);
    const last = (await get(tenant, '/public/v1/candidates?size=2&page=1')).json();
    expect(last.data.map((c: { email: string }) => c.email)).toEqual(['old@example.com']);
    expect(Object.keys(last.data[0]).sort()).toEqual(
      ['createdAt', 'email', 'firstName', 'headline', 'id', 'lastName', 'links', 'location', 'phone', 'skills', 'source', 'updatedAt'].sort(),
    );

    const recent = (await get(tenant, `/public/v1/candidates?updatedSince=${encodeURIComponent(since)}`)).json();
    expect(recent.data.map((c: { email: string }) => c.email).sort()).toEqual(['new1@example.com', 'new2@example.com']);
    expect((await get(tenant, '/public/v1/candidates?updatedSince=yesterday')).statusCode).toBe(422);
    expect((await get(tenant, '/public/v1/candidates?size=101')).statusCode).toBe(422);
  });

  describe('search (q)', () => {
    let tenant: Tenant;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      tenant = await t.tenant();
      const res = await importCandidates(tenant, {
        candidates: [
          { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@analytical.example', headline: 'Python engineer', skills: ['Python', 'Mathematics'] },
          { firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.example', headline: 'Compiler pioneer', skills: ['COBOL', 'Python'] },
          { firstName: 'Java', lastName: 'Smith', email: 'jsmith@example.com', headline: 'Sales manager', skills: ['Negotiation'] },
          { firstName: 'Linus', lastName: 'Torvalds', email: 'linus@kernel.example', headline: 'Kernel hacker', skills: ['C', 'Java', 'Git'] },
          { firstName: 'Margaret', lastName: "O'Hamilton", email: 'margaret@apollo.example', headline: 'Flight software lead', skills: ['Assembly'] },
        ],
      });
      for (const row of res.json().results) ids[row.email.split('@')[0]] = row.candidateId;
    });

    async function search(q: string): Promise<string[]> {
      const res = await get(tenant, `/public/v1/candidates?q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      return res.json().data.map((c: { id: string }) => c.id);
    }

    it('finds by name, email, headline and skill, ranking the stronger match first', async () => {
      // Python is in Ada's headline and skills, only in Grace's skills.
      expect(await search('python')).toEqual([ids.ada, ids.grace]);
      // A name outweighs a skill.
      expect(await search('java')).toEqual([ids.jsmith, ids.linus]);
      expect(await search('Lovelace')).toEqual([ids.ada]);
      expect(await search('grace@navy.example')).toEqual([ids.grace]);
      expect(await search('kernel')).toEqual([ids.linus]);
      expect(await search('cobol')).toEqual([ids.grace]);
    });

    it('matches word starts, requires every word, and treats punctuation as text', async () => {
      expect(await search('lov')).toEqual([ids.ada]);
      expect(await search('pyth mathem')).toEqual([ids.ada]);
      expect(await search('python compiler')).toEqual([ids.grace]);
      expect(await search("o'hamilton")).toEqual([ids.margaret]);
      expect(await search('nobody')).toEqual([]);
      expect(await search('& | ! :* (')).toEqual([]);
      expect(await search("')) or 1=1 --")).toEqual([]);
    });

    it('paginates search results with the total', async () => {
      const res = (await get(tenant, '/public/v1/candidates?q=python&size=1&page=1')).json();
      expect(res.pagination).toEqual({ page: 1, size: 1, totalElements: 2, totalPages: 2, nextCursor: null });
      expect(res.data.map((c: { id: string }) => c.id)).toEqual([ids.grace]);
    });
  });
});

describe('GET /public/v1/candidates/{id}', () => {
  it('answers the full profile with a summary of the applications', async () => {
    const tenant = await t.tenant();
    const listingId = await makeListing(t, tenant.companyId);
    const submitted = await t.app.inject({
      method: 'POST',
      url: '/public/v1/applications',
      headers: tenant.headers,
      payload: { jobListingId: listingId, candidate: applicant('profile@example.com', { headline: 'Engineer' }) },
    });
    const application = submitted.json();
    const profile = (await get(tenant, `/public/v1/candidates/${application.jobSeekerId}`)).json();
    expect(profile).toMatchObject({ id: application.jobSeekerId, email: 'profile@example.com', source: 'EXTERNAL' });
    expect(profile.applications).toEqual([
      {
        id: application.id,
        jobListingId: listingId,
        status: 'ACTIVE',
        source: 'EXTERNAL',
        appliedAt: application.appliedAt,
        updatedAt: application.updatedAt,
      },
    ]);
  });

  it('answers 404 for an unknown id and for another company\'s candidate', async () => {
    const a = await t.tenant();
    const b = await t.tenant();
    const id = (await importCandidates(a, { candidates: [applicant('mine@example.com')] })).json().results[0].candidateId;
    expect((await get(a, `/public/v1/candidates/${id}`)).statusCode).toBe(200);
    const foreign = await get(b, `/public/v1/candidates/${id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('NOT_FOUND');
    expect((await get(a, '/public/v1/candidates/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});

describe('tenancy and scopes', () => {
  it('keeps companies apart: lists, search and the same email', async () => {
    const a = await t.tenant();
    const b = await t.tenant();
    await importCandidates(a, { candidates: [applicant('shared@example.com', { headline: 'Uniquesearchword' })] });
    // The same email in another company is another candidate.
    const inB = await importCandidates(b, { candidates: [applicant('shared@example.com')] });
    expect(inB.json().results[0].result).toBe('created');
    expect((await get(b, '/public/v1/candidates')).json().pagination.totalElements).toBe(1);
    expect((await get(b, '/public/v1/candidates?q=uniquesearchword')).json().data).toEqual([]);
    expect((await get(a, '/public/v1/candidates?q=uniquesearchword')).json().data).toHaveLength(1);
  });

  it('requires candidates:read to read and candidates:write to import (403 naming the scope)', async () => {
    const writer = await t.tenant(['candidates:write']);
    const reader = await t.tenant(['candidates:read']);
    for (const url of ['/public/v1/candidates', '/public/v1/candidates/00000000-0000-4000-8000-000000000000']) {
      const res = await get(writer, url);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'FORBIDDEN', details: [{ field: 'scope', message: 'requires candidates:read' }] });
      expect(res.json().message).toMatch(/candidates:read/);
    }
    const res = await importCandidates(reader, { candidates: [applicant('x@example.com')] });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/candidates:write/);
    expect((await importCandidates(writer, { candidates: [applicant('x@example.com')] })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/public/v1/candidates' })).statusCode).toBe(401);
  });
});
