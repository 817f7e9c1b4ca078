// A list page and its totalElements are read in one statement (one snapshot): while writers create,
// move and delete, every answer's total must describe exactly the rows it lists. With fewer than
// 100 rows in the company a page of 100 is the whole list, so its length must equal its total at
// every moment; read as two statements, a commit landing between them broke that. At the end the
// totals equal a count of the rows.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { createJobListing, deleteJobListing } from '../../src/modules/job-listings/service.ts';
import { applicant, makeListing } from '../helpers/factories.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let tenant: Tenant;
let listingId: string;
beforeAll(async () => {
  // The readers send far more than the default 600 requests a minute.
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' });
  tenant = await t.tenant();
  listingId = await makeListing(t, tenant.companyId);
});
afterAll(async () => t?.close());

const LISTS = [
  '/public/v1/candidates?size=100',
  '/public/v1/applications?size=100',
  '/public/v1/applications?size=100&status=IN_REVIEW&status=ACTIVE',
  '/public/v1/job-listings?size=100',
];

async function call(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) {
  return t.app.inject({ method, url, headers: tenant.headers, ...(payload ? { payload: payload as object } : {}) });
}

it('answers a total that agrees with the page at every moment while writers change the lists', async () => {
  let writing = true;
  const applications: string[] = [];
  const writers = [
    // Applications (each with a new candidate), then status moves between the two listed stages.
    (async () => {
      for (let i = 0; i < 24; i++) {
        const res = await call('POST', '/public/v1/applications', { jobListingId: listingId, candidate: applicant(`w${i}@example.com`) });
        expect(res.statusCode).toBe(201);
        applications.push(res.json().id);
        const moved = applications[(i * 7) % applications.length];
        const status = i % 3 === 0 ? 'REJECTED' : i % 2 === 0 ? 'IN_REVIEW' : 'ACTIVE';
        expect((await call('PATCH', `/public/v1/applications/${moved}/status`, { status })).statusCode).toBe(200);
      }
    })(),
    // Candidates imported in batches.
    (async () => {
      for (let i = 0; i < 8; i++) {
        const candidates = [0, 1, 2].map((n) => applicant(`i${i}-${n}@example.com`));
        expect((await call('POST', '/public/v1/candidates/import', { candidates })).statusCode).toBe(200);
      }
    })(),
    // Listings created and deleted again.
    (async () => {
      for (let i = 0; i < 16; i++) {
        const { listing } = await createJobListing(t.ctx, tenant.companyId, { position: `Draft ${i}`, positionType: 'FULL_TIME', workPlaceType: 'REMOTE' });
        if (i % 2 === 0) await deleteJobListing(t.ctx, tenant.companyId, listing.id);
      }
    })(),
  ];
  const done = Promise.all(writers).finally(() => (writing = false));
  let reads = 0;
  // Bounded: on the embedded database (one connection) readers and writers take turns.
  const readers = [0, 1, 2].map(async () => {
    for (let round = 0; writing && round < 60; round++) {
      for (const url of LISTS) {
        const res = await call('GET', url);
        expect(res.statusCode).toBe(200);
        const { data, pagination } = res.json();
        expect(data.length, url).toBe(pagination.totalElements);
        reads++;
      }
    }
  });
  await Promise.all([done, ...readers]);
  expect(reads).toBeGreaterThan(0);

  const counted = await queryRows<{ candidates: number; applications: number; listed: number; listings: number }>(
    t.database.db,
    sql`select (select count(*)::int from candidates where company_id = ${tenant.companyId}) as candidates,
          (select count(*)::int from applications where company_id = ${tenant.companyId}) as applications,
          (select count(*)::int from applications where company_id = ${tenant.companyId} and status in ('IN_REVIEW', 'ACTIVE')) as listed,
          (select count(*)::int from job_listings where company_id = ${tenant.companyId} and status <> 'ARCHIVED') as listings`,
  );
  const totals = await Promise.all(LISTS.map(async (url) => (await call('GET', url)).json().pagination.totalElements));
  expect(totals).toEqual([counted[0].candidates, counted[0].applications, counted[0].listed, counted[0].listings]);
});

it('answers the total on a page past the end, and from the cursor pages as well', async () => {
  const all = (await call('GET', '/public/v1/applications?size=5')).json();
  expect(all.pagination.totalElements).toBeGreaterThan(5);
  const past = (await call('GET', '/public/v1/applications?size=5&page=1000')).json();
  expect(past.data).toEqual([]);
  expect(past.pagination.totalElements).toBe(all.pagination.totalElements);
  const next = (await call('GET', `/public/v1/applications?size=5&cursor=${encodeURIComponent(all.pagination.nextCursor)}`)).json();
  expect(next.pagination.totalElements).toBe(all.pagination.totalElements);
  for (const url of ['/public/v1/candidates?size=5&page=1000', '/public/v1/job-listings?size=5&page=1000', '/public/v1/candidates?size=5&page=1000&q=w1']) {
    const res = (await call('GET', url)).json();
    expect(res.data, url).toEqual([]);
    expect(res.pagination.totalElements, url).toBeGreaterThan(0);
  }
});
