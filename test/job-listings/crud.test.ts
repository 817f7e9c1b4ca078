// Create, read, list, update and delete through HTTP: success, every error, tenancy and scopes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateCompanySettings } from '../../src/modules/companies/service.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { api, CONTRACT_CREATE, eventsOf, FULL, MINIMAL, MISSING_ID, SECTOR_ID, TAG_IT, TAG_SALES } from './helpers.ts';

let t: TestApp;
let j: ReturnType<typeof api>;
beforeAll(async () => {
  t = await buildTestApp();
  j = api(t);
});
afterAll(async () => t.close());

const LISTING_KEYS = [
  'address', 'availableForEveryCountry', 'benefits', 'closedAt', 'companyId', 'createdAt', 'currency', 'educationLevel',
  'expiresAt', 'fieldOfStudy', 'hiringProcessSteps', 'id', 'isSalaryMax', 'isStartDate', 'jobDescription',
  'jobListingEndDate', 'jobListingRequirements', 'jobListingTags', 'numberOfPositionsOpened', 'paymentInterval',
  'personalQualitiesSummary', 'position', 'positionType', 'publishedAt', 'referenceNumber', 'rejectionReason',
  'requirementsSummary', 'salaryBase', 'salaryDescription', 'salaryMax', 'salaryType', 'sectorId', 'skills', 'startDate',
  'status', 'updatedAt', 'workPlaceType', 'yearsOfExperience',
].sort();

const original = (text: string, language = 'en') => ({
  value: text,
  original: text,
  sourceLanguage: language,
  translated: false,
  translationType: null,
});

type Reply = Awaited<ReturnType<TestApp['app']['inject']>>;

function expectError(res: Reply, status: number, error: string) {
  expect(res.statusCode).toBe(status);
  expect(res.json()).toMatchObject({ status, error });
}

function fieldsOf(res: Reply): string[] {
  return (res.json().details ?? []).map((detail: { field: string }) => detail.field).sort();
}

describe('POST /public/v1/job-listings', () => {
  it('creates a DRAFT from the contract create fields alone and answers 201 with the full listing', async () => {
    const tenant = await t.tenant();
    const res = await j.call('POST', '/public/v1/job-listings', tenant.headers, CONTRACT_CREATE);
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-language']).toBe('en');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(LISTING_KEYS);
    expect(body).toMatchObject({
      companyId: tenant.companyId,
      status: 'DRAFT',
      position: original('Data analyst'),
      positionType: 'PART_TIME',
      workPlaceType: 'HYBRID',
      currency: 'EUR',
      salaryBase: 42000,
      paymentInterval: 'YEARLY',
      skills: [],
      benefits: [],
      hiringProcessSteps: [],
      jobListingTags: [],
      jobListingRequirements: [],
      address: null,
      jobDescription: null,
      publishedAt: null,
      expiresAt: null,
      closedAt: null,
    });
    expect(body.createdAt).toBe(body.updatedAt);
  });

  it('stores and returns every field faithfully', async () => {
    const tenant = await t.tenant();
    const created = await j.create(tenant.headers, FULL);
    const id = created.id;
    const expected = {
      id,
      companyId: tenant.companyId,
      status: 'DRAFT',
      sectorId: SECTOR_ID,
      position: original(FULL.position),
      positionType: 'FULL_TIME',
      workPlaceType: 'HYBRID',
      address: FULL.address,
      isStartDate: true,
      startDate: '2031-02-01',
      jobDescription: original(FULL.jobDescription),
      requirementsSummary: original(FULL.requirementsSummary),
      personalQualitiesSummary: original(FULL.personalQualitiesSummary),
      skills: [
        { value: original('TypeScript'), type: 'SKILL', expertType: 'ADVANCED', languageProficiency: null, drivingClass: null },
        { value: original('German'), type: 'LANGUAGE', expertType: null, languageProficiency: 'B2', drivingClass: null },
        { value: original('Car'), type: 'DRIVING_LICENSE', expertType: null, languageProficiency: null, drivingClass: 'B' },
      ],
      currency: 'EUR',
      salaryBase: 70000,
      isSalaryMax: true,
      salaryMax: 90000.5,
      salaryType: 'GROSS',
      paymentInterval: 'YEARLY',
      salaryDescription: original(FULL.salaryDescription),
      benefits: [original('Lunch'), original('Remote days')],
      educationLevel: 'BACHELOR',
      fieldOfStudy: original('Computer science'),
      yearsOfExperience: 5,
      availableForEveryCountry: false,
      numberOfPositionsOpened: 2,
      jobListingEndDate: '2031-06-30',
      referenceNumber: 'REF-42',
      jobListingRequirements: [
        { id: expect.any(String), jobListingId: id, requirementText: 'Node.js' },
        { id: expect.any(String), jobListingId: id, requirementText: 'PostgreSQL' },
      ],
      rejectionReason: null,
      publishedAt: null,
      // A draft with an end date already knows when it will expire.
      expiresAt: '2031-06-30T23:59:59.999Z',
      closedAt: null,
    };
    expect(created).toMatchObject(expected);
    expect(created.hiringProcessSteps).toEqual([
      { id: expect.any(String), jobListingId: id, stepOrder: 1, stepName: original('Phone call'), description: original('Thirty minutes with a recruiter.') },
      { id: expect.any(String), jobListingId: id, stepOrder: 2, stepName: original('Tech interview'), description: null },
    ]);
    expect(created.jobListingTags.map((tag: { tagId: string }) => tag.tagId).sort()).toEqual([TAG_IT, TAG_SALES].sort());
    for (const link of created.jobListingTags) expect(link).toEqual({ id: expect.any(String), jobListingId: id, tagId: link.tagId });

    const read = await j.call('GET', `/public/v1/job-listings/${id}`, tenant.headers);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created);
  });

  it('takes the source language from `language`, else from the company default', async () => {
    const tenant = await t.tenant();
    const german = await j.create(tenant.headers, { ...MINIMAL, position: 'Entwickler', language: 'DE' });
    expect(german.position).toEqual(original('Entwickler', 'de'));
    await updateCompanySettings(t.ctx, tenant.companyId, { defaultLanguage: 'fr' });
    const res = await j.call('POST', '/public/v1/job-listings', tenant.headers, { ...MINIMAL, position: 'Développeur' });
    expect(res.headers['content-language']).toBe('fr');
    expect(res.json().position.sourceLanguage).toBe('fr');
  });

  it('answers 422 with one detail per failing field', async () => {
    const { headers } = await t.tenant();
    const res = await j.call('POST', '/public/v1/job-listings', headers, {});
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual(['position', 'positionType', 'workPlaceType']);
  });

  it('refuses unknown fields, also nested ones', async () => {
    const { headers } = await t.tenant();
    const res = await j.call('POST', '/public/v1/job-listings', headers, { ...MINIMAL, salary: 1, address: { town: 'X' } });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual(['address.town', 'salary']);
  });

  it.each([
    ['positionType', { positionType: 'FREELANCE' }],
    ['workPlaceType', { workPlaceType: 'OFFICE' }],
    ['salaryType', { salaryType: 'TAKE_HOME' }],
    ['paymentInterval', { paymentInterval: 'FORTNIGHTLY' }],
    ['educationLevel', { educationLevel: 'GENIUS' }],
    ['skills[0].type', { skills: [{ value: 'x', type: 'TALENT' }] }],
    ['currency', { currency: 'EURO' }],
    ['currency', { currency: 'XAU' }],
    ['salaryMax', { salaryBase: 100, salaryMax: 99 }],
    ['startDate', { startDate: '2031-02-30' }],
    ['jobListingEndDate', { jobListingEndDate: '31/12/2031' }],
    ['sectorId', { sectorId: MISSING_ID }],
    ['sectorId', { sectorId: 'not-a-uuid' }],
    ['jobListingTags[1].tagId', { jobListingTags: [{ tagId: TAG_IT }, { tagId: MISSING_ID }] }],
    ['jobListingTags[1].tagId', { jobListingTags: [{ tagId: TAG_IT }, { tagId: TAG_IT }] }],
    ['salaryBase', { salaryBase: '100' }],
    ['salaryBase', { salaryBase: -1 }],
    ['yearsOfExperience', { yearsOfExperience: 2.5 }],
    ['language', { language: 'english' }],
    ['position', { position: '' }],
    ['address.country', { address: { country: 'Germany' } }],
    ['address.latitude', { address: { latitude: 91 } }],
    ['hiringProcessSteps[1].stepOrder', { hiringProcessSteps: [{ stepName: 'a', stepOrder: 1 }, { stepName: 'b', stepOrder: 1 }] }],
  ])('answers 422 naming %s', async (field, patch) => {
    const { headers } = await t.tenant();
    const res = await j.call('POST', '/public/v1/job-listings', headers, { ...MINIMAL, ...patch });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual([field]);
  });

  it('names every failing field in one 422, the schema\'s and the later checks\' alike (create and update)', async () => {
    const tenant = await t.tenant();
    const bad = {
      positionType: 'FREELANCE', // enum: the schema
      startDate: '2031-02-30', // a date that does not exist: the schema's date rule
      currency: 'XAU', // not a currency: checked after the schema
      sectorId: MISSING_ID, // no such sector: checked after the schema
      salaryBase: 100,
      salaryMax: 99, // below salaryBase: checked after the schema
    };
    const created = await j.call('POST', '/public/v1/job-listings', tenant.headers, { ...MINIMAL, ...bad });
    expectError(created, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(created)).toEqual(['currency', 'positionType', 'salaryMax', 'sectorId', 'startDate']);
    // The schema's details come first, one entry per field.
    expect(created.json().details.slice(0, 2).map((d: { field: string }) => d.field).sort()).toEqual(['positionType', 'startDate']);

    const listing = await j.call('POST', '/public/v1/job-listings', tenant.headers, MINIMAL);
    const updated = await j.call('PATCH', `/public/v1/job-listings/${listing.json().id}`, tenant.headers, bad);
    expectError(updated, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(updated)).toEqual(['currency', 'positionType', 'salaryMax', 'sectorId', 'startDate']);
  });

  it('accepts a currency in lower case and stores the ISO form', async () => {
    const { headers } = await t.tenant();
    expect((await j.create(headers, { ...MINIMAL, currency: 'chf' })).currency).toBe('CHF');
  });

  it('answers 400 to malformed JSON and 415 to a body that is not JSON', async () => {
    const { headers } = await t.tenant();
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/public/v1/job-listings',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"position": ',
    });
    expectError(malformed, 400, 'BAD_REQUEST');
    const text = await t.app.inject({
      method: 'POST',
      url: '/public/v1/job-listings',
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: 'position=x',
    });
    expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('records job_listing.created holding the listing', async () => {
    const tenant = await t.tenant();
    const created = await j.create(tenant.headers, FULL);
    const [event] = await eventsOf(t, tenant.companyId, 'job_listing.created');
    expect(event.data).toEqual(created);
  });
});

describe('GET /public/v1/job-listings/{id}', () => {
  it('answers 404 for an unknown id and 422 for an id that is not a uuid', async () => {
    const { headers } = await t.tenant();
    expectError(await j.call('GET', `/public/v1/job-listings/${MISSING_ID}`, headers), 404, 'NOT_FOUND');
    expectError(await j.call('GET', '/public/v1/job-listings/123', headers), 422, 'VALIDATION_ERROR');
  });
});

describe('GET /public/v1/job-listings', () => {
  let tenant: Tenant;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    tenant = await t.tenant();
    for (const name of ['draft', 'active', 'closed', 'archived', 'underReview']) {
      ids[name] = (await j.create(tenant.headers, { ...MINIMAL, position: name })).id;
    }
    await j.move(tenant.headers, ids.active, 'publish');
    await j.move(tenant.headers, ids.closed, 'publish');
    await j.move(tenant.headers, ids.closed, 'close');
    await j.move(tenant.headers, ids.archived, 'archive');
    await updateCompanySettings(t.ctx, tenant.companyId, { requiresListingReview: true });
    await j.move(tenant.headers, ids.underReview, 'publish');
    await updateCompanySettings(t.ctx, tenant.companyId, { requiresListingReview: false });
    // Another company's listing never shows.
    await j.create((await t.tenant()).headers, MINIMAL);
  });

  const list = (query = '', headers = tenant.headers) => j.call('GET', `/public/v1/job-listings${query}`, headers);

  it('lists items with exactly the contract fields and updatedAt, newest first, without ARCHIVED', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.pagination).toEqual({ page: 0, size: 20, totalElements: 4, totalPages: 1, nextCursor: null });
    for (const item of body.data) {
      expect(Object.keys(item).sort()).toEqual(['createdAt', 'id', 'position', 'positionType', 'status', 'updatedAt', 'workPlaceType']);
      expect(Object.keys(item.position).sort()).toEqual(['translated', 'value']);
    }
    expect(body.data.map((item: { position: { value: string } }) => item.position.value)).toEqual([
      'underReview',
      'closed',
      'active',
      'draft',
    ]);
    expect(body.data[0]).toEqual({
      id: ids.underReview,
      status: 'UNDER_REVIEW',
      position: { value: 'underReview', translated: false },
      positionType: 'FULL_TIME',
      workPlaceType: 'REMOTE',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('filters by status, repeatable, and shows ARCHIVED only when asked', async () => {
    const statuses = async (query: string) =>
      (await list(query)).json().data.map((item: { status: string }) => item.status).sort();
    expect(await statuses('?status=ACTIVE')).toEqual(['ACTIVE']);
    expect(await statuses('?status=ACTIVE&status=CLOSED')).toEqual(['ACTIVE', 'CLOSED']);
    expect(await statuses('?status=ARCHIVED')).toEqual(['ARCHIVED']);
    expect(await statuses('?status=ARCHIVED&status=DRAFT')).toEqual(['ARCHIVED', 'DRAFT']);
    expectError(await list('?status=OPEN'), 422, 'VALIDATION_ERROR');
  });

  it('filters by workPlaceType and positionType, repeatable, with the status and the total; 422 for unknown values', async () => {
    const other = await t.tenant();
    const made: Record<string, string> = {};
    for (const [name, positionType, workPlaceType] of [
      ['remote full', 'FULL_TIME', 'REMOTE'],
      ['hybrid part', 'PART_TIME', 'HYBRID'],
      ['site contract', 'CONTRACT', 'ON_SITE'],
      ['remote intern', 'INTERNSHIP', 'REMOTE'],
    ]) {
      made[name] = (await j.create(other.headers, { ...MINIMAL, position: name, positionType, workPlaceType })).id;
    }
    await j.move(other.headers, made['remote full'], 'publish');
    const names = async (query: string) => {
      const body = (await list(query, other.headers)).json();
      const found = body.data.map((item: { position: { value: string } }) => item.position.value).sort();
      expect(body.pagination.totalElements, query).toBe(found.length);
      return found;
    };
    expect(await names('?workPlaceType=REMOTE')).toEqual(['remote full', 'remote intern']);
    expect(await names('?workPlaceType=REMOTE&workPlaceType=HYBRID')).toEqual(['hybrid part', 'remote full', 'remote intern']);
    expect(await names('?positionType=CONTRACT&positionType=PART_TIME')).toEqual(['hybrid part', 'site contract']);
    expect(await names('?workPlaceType=REMOTE&positionType=INTERNSHIP')).toEqual(['remote intern']);
    expect(await names('?workPlaceType=REMOTE&status=ACTIVE')).toEqual(['remote full']);
    expect(await names('?workPlaceType=HYBRID&q=remote')).toEqual([]);
    // Pages by cursor keep the filter.
    const first = (await list('?workPlaceType=REMOTE&size=1', other.headers)).json();
    expect(first.pagination.totalElements).toBe(2);
    const next = (await list(`?workPlaceType=REMOTE&size=1&cursor=${first.pagination.nextCursor}`, other.headers)).json();
    expect([...first.data, ...next.data].map((item: { id: string }) => item.id).sort()).toEqual([made['remote full'], made['remote intern']].sort());
    // Another company's listings never show (this tenant's are FULL_TIME and REMOTE too).
    expect((await list('?workPlaceType=REMOTE&positionType=FULL_TIME', other.headers)).json().data.map((item: { id: string }) => item.id)).toEqual([made['remote full']]);
    for (const query of ['?workPlaceType=OFFICE', '?positionType=full_time', '?workPlaceType=REMOTE&workPlaceType=MOON']) {
      const res = await list(query, other.headers);
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(fieldsOf(res)[0], query).toMatch(/^(workPlaceType|positionType)/);
    }
  });

  it('filters by updatedSince', async () => {
    const since = t.clock.now().toISOString();
    await j.call('PATCH', `/public/v1/job-listings/${ids.draft}`, tenant.headers, { referenceNumber: 'later' });
    const res = await list(`?updatedSince=${encodeURIComponent(since)}`);
    expect(res.json().data.map((item: { id: string }) => item.id)).toEqual([ids.draft]);
    expect((await list('?updatedSince=2000-01-01T00:00:00Z')).json().pagination.totalElements).toBe(4);
    expectError(await list('?updatedSince=yesterday'), 422, 'VALIDATION_ERROR');
  });

  it('pages without overlap, and a page past the end is an empty 200', async () => {
    const first = (await list('?size=3')).json();
    const second = (await list('?size=3&page=1')).json();
    expect(first.pagination).toEqual({ page: 0, size: 3, totalElements: 4, totalPages: 2, nextCursor: expect.any(String) });
    expect(second.data).toHaveLength(1);
    const all = [...first.data, ...second.data].map((item: { id: string }) => item.id);
    expect(new Set(all).size).toBe(4);
    expect((await list('?page=5')).json().data).toEqual([]);
    expectError(await list('?size=101'), 422, 'VALIDATION_ERROR');
    expectError(await list('?page=-1'), 422, 'VALIDATION_ERROR');
  });

  it('orders listings created in the same millisecond by id', async () => {
    const other = await t.tenant();
    t.clock.offsetMs -= 1; // not the offsetMs of any other listing in this file
    const frozen = t.clock.now();
    const realNow = t.clock.now;
    t.clock.now = () => new Date(frozen);
    try {
      for (let i = 0; i < 3; i++) await j.create(other.headers, MINIMAL);
    } finally {
      t.clock.now = realNow;
      t.clock.offsetMs += 1;
    }
    const data = (await list('', other.headers)).json().data as { id: string }[];
    expect(data.map((item) => item.id)).toEqual(data.map((item) => item.id).sort().reverse());
  });
});

describe('PATCH /public/v1/job-listings/{id}', () => {
  it('merges: fields left out are kept, null clears, address merges, arrays replace', async () => {
    const tenant = await t.tenant();
    const created = await j.create(tenant.headers, FULL);
    const res = await j.call('PATCH', `/public/v1/job-listings/${created.id}`, tenant.headers, {
      position: 'Staff engineer',
      jobDescription: null,
      address: { city: 'Hamburg', latitude: null },
      benefits: ['Gym'],
      jobListingTags: [],
      salaryMax: null,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.position).toEqual(original('Staff engineer'));
    expect(body.jobDescription).toBeNull();
    expect(body.address).toEqual({ ...FULL.address, city: 'Hamburg', latitude: null });
    expect(body.benefits).toEqual([original('Gym')]);
    expect(body.jobListingTags).toEqual([]);
    expect(body.salaryMax).toBeNull();
    // Untouched fields are kept.
    expect(body.skills).toEqual(created.skills);
    expect(body.hiringProcessSteps).toEqual(created.hiringProcessSteps);
    expect(body.requirementsSummary).toEqual(created.requirementsSummary);
    expect(body.salaryBase).toBe(70000);
    expect(body.createdAt).toBe(created.createdAt);
    expect(new Date(body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(created.updatedAt).getTime());

    const [event] = await eventsOf(t, tenant.companyId, 'job_listing.updated');
    expect(event.data).toEqual(body);

    const cleared = await j.call('PATCH', `/public/v1/job-listings/${created.id}`, tenant.headers, { address: null });
    expect(cleared.json().address).toBeNull();
  });

  it('checks salaryMax against the stored salaryBase and validates like create', async () => {
    const { headers } = await t.tenant();
    const created = await j.create(headers, { ...MINIMAL, salaryBase: 100 });
    const url = `/public/v1/job-listings/${created.id}`;
    const low = await j.call('PATCH', url, headers, { salaryMax: 50 });
    expectError(low, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(low)).toEqual(['salaryMax']);
    // The source language cannot change; required fields cannot be cleared.
    const bad = await j.call('PATCH', url, headers, { language: 'de', positionType: null });
    expect(fieldsOf(bad)).toEqual(['language', 'positionType']);
    const unknown = await j.call('PATCH', url, headers, { sectorId: MISSING_ID, currency: 'ABC', jobListingTags: [{ tagId: MISSING_ID }] });
    expect(fieldsOf(unknown)).toEqual(['currency', 'jobListingTags[0].tagId', 'sectorId']);
    // Nothing was written by the refused requests.
    expect((await j.call('GET', url, headers)).json().salaryMax).toBeNull();
    expect((await j.call('PATCH', url, headers, {})).statusCode).toBe(200);
  });

  it('answers 404 for an unknown id and 409 on an ARCHIVED listing', async () => {
    const { headers } = await t.tenant();
    expectError(await j.call('PATCH', `/public/v1/job-listings/${MISSING_ID}`, headers, { position: 'x' }), 404, 'NOT_FOUND');
    const created = await j.create(headers);
    await j.move(headers, created.id, 'archive');
    const res = await j.call('PATCH', `/public/v1/job-listings/${created.id}`, headers, { position: 'x' });
    expectError(res, 409, 'CONFLICT');
    expect(res.json().message).toMatch(/ARCHIVED/);
  });
});

describe('DELETE /public/v1/job-listings/{id}', () => {
  it('deletes a DRAFT with 204 and records job_listing.deleted', async () => {
    const tenant = await t.tenant();
    const created = await j.create(tenant.headers, FULL);
    const res = await j.call('DELETE', `/public/v1/job-listings/${created.id}`, tenant.headers);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectError(await j.call('GET', `/public/v1/job-listings/${created.id}`, tenant.headers), 404, 'NOT_FOUND');
    const [event] = await eventsOf(t, tenant.companyId, 'job_listing.deleted');
    expect(event.data).toEqual(created);
    expectError(await j.call('DELETE', `/public/v1/job-listings/${created.id}`, tenant.headers), 404, 'NOT_FOUND');
  });

  it('answers 409 naming the status for every other status', async () => {
    const tenant = await t.tenant();
    const active = (await j.create(tenant.headers)).id;
    await j.move(tenant.headers, active, 'publish');
    const closed = (await j.create(tenant.headers)).id;
    await j.move(tenant.headers, closed, 'publish');
    await j.move(tenant.headers, closed, 'close');
    const archived = (await j.create(tenant.headers)).id;
    await j.move(tenant.headers, archived, 'archive');
    await updateCompanySettings(t.ctx, tenant.companyId, { requiresListingReview: true });
    const underReview = (await j.create(tenant.headers)).id;
    await j.move(tenant.headers, underReview, 'publish');
    for (const [status, id] of [['ACTIVE', active], ['CLOSED', closed], ['ARCHIVED', archived], ['UNDER_REVIEW', underReview]]) {
      const res = await j.call('DELETE', `/public/v1/job-listings/${id}`, tenant.headers);
      expectError(res, 409, 'CONFLICT');
      expect(res.json().message).toContain(status);
      expect(res.json().message).toMatch(/archive/);
    }
  });
});

describe('tenant isolation', () => {
  it('answers 404 on every endpoint for another company\'s listing, and changes nothing', async () => {
    const owner = await t.tenant();
    const intruder = await t.tenant();
    const created = await j.create(owner.headers, FULL);
    const url = `/public/v1/job-listings/${created.id}`;
    const attempts = [
      j.call('GET', url, intruder.headers),
      j.call('PATCH', url, intruder.headers, { position: 'hijacked' }),
      j.call('POST', `${url}/publish`, intruder.headers),
      j.call('POST', `${url}/close`, intruder.headers),
      j.call('POST', `${url}/archive`, intruder.headers),
      j.call('PUT', `${url}/translations/de`, intruder.headers, { position: 'Entwickler' }),
      j.call('DELETE', url, intruder.headers),
    ];
    for (const res of await Promise.all(attempts)) {
      expectError(res, 404, 'NOT_FOUND');
      expect(res.json().message).toBe('Job listing not found');
    }
    const list = await j.call('GET', '/public/v1/job-listings', intruder.headers);
    expect(list.json().data).toEqual([]);
    expect((await j.call('GET', url, owner.headers)).json()).toEqual(created);
    expect(await eventsOf(t, intruder.companyId)).toEqual([]);
  });
});

describe('scopes', () => {
  it('needs jobs:read to read and jobs:write to change, with 403 naming the scope', async () => {
    const owner = await t.tenant();
    const created = await j.create(owner.headers);
    const readOnly = { 'x-api-key': await t.keyFor(owner.companyId, ['jobs:read']) };
    const writeOnly = { 'x-api-key': await t.keyFor(owner.companyId, ['jobs:write']) };
    const url = `/public/v1/job-listings/${created.id}`;
    const writes = () => [
      ['POST', '/public/v1/job-listings', MINIMAL],
      ['PATCH', url, { position: 'x' }],
      ['POST', `${url}/publish`, undefined],
      ['POST', `${url}/close`, undefined],
      ['POST', `${url}/archive`, undefined],
      ['PUT', `${url}/translations/de`, { position: 'x' }],
      ['DELETE', url, undefined],
    ] as const;
    const reads = [['GET', '/public/v1/job-listings'], ['GET', url]] as const;

    for (const [method, path, body] of writes()) {
      const res = await j.call(method, path, readOnly, body);
      expectError(res, 403, 'FORBIDDEN');
      expect(res.json().details).toEqual([{ field: 'scope', message: 'requires jobs:write' }]);
    }
    for (const [method, path] of reads) {
      expect((await j.call(method, path, readOnly)).statusCode).toBe(200);
      const res = await j.call(method, path, writeOnly);
      expectError(res, 403, 'FORBIDDEN');
      expect(res.json().details).toEqual([{ field: 'scope', message: 'requires jobs:read' }]);
    }
    for (const [method, path, body] of [...writes(), ...reads.map(([m, p]) => [m, p, undefined] as const)]) {
      expectError(await j.call(method, path, {}, body), 401, 'UNAUTHORIZED');
    }
    // The refused writes changed nothing.
    expect((await j.call('GET', url, readOnly)).json()).toEqual(created);
  });
});
