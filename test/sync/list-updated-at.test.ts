// Every list a delta sync reads (updatedSince) answers each item's updatedAt, equal to the one its
// single GET answers, so a client can keep the newest it saw (docs/decisions.md, "Delta sync").
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { applicant, makeListing } from '../helpers/factories.ts';

let t: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.tenant();
});
afterAll(() => t.close());

const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: tenant.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

it('job listings, applications and candidates list items carry the updatedAt of the resource', async () => {
  const listingId = await makeListing(t, tenant.companyId, 'ACTIVE');
  const submitted = await t.app.inject({
    method: 'POST',
    url: '/public/v1/applications',
    headers: tenant.headers,
    payload: { jobListingId: listingId, candidate: applicant('updated-at@example.com') },
  });
  expect(submitted.statusCode, submitted.body).toBe(201);
  const application = submitted.json() as { id: string; jobSeekerId: string };
  // A change after creation, so updatedAt is not createdAt.
  const patched = await t.app.inject({
    method: 'PATCH',
    url: `/public/v1/job-listings/${listingId}`,
    headers: tenant.headers,
    payload: { position: 'Changed since' },
  });
  expect(patched.statusCode).toBe(200);

  for (const [list, id] of [
    ['/public/v1/job-listings', listingId],
    ['/public/v1/applications', application.id],
    ['/public/v1/candidates', application.jobSeekerId],
  ] as const) {
    const one = await get(`${list}/${id}`);
    expect(one.updatedAt, list).toEqual(expect.any(String));
    for (const query of ['', '?updatedSince=2000-01-01T00:00:00Z']) {
      const item = (await get(`${list}${query}`)).data.find((entry: { id: string }) => entry.id === id);
      expect(item?.updatedAt, `${list}${query}`).toBe(one.updatedAt);
    }
  }
});

it('documents updatedSince as a convenience and the event feed as the exact way', async () => {
  const doc = await get('/openapi.json');
  for (const list of ['/public/v1/job-listings', '/public/v1/applications', '/public/v1/candidates']) {
    const parameter = (doc.paths[list].get.parameters as Array<{ name: string; description: string }>).find(
      (entry) => entry.name === 'updatedSince',
    );
    expect(parameter?.description, list).toMatch(/convenience/);
    expect(parameter?.description, list).toContain('/public/v1/events');
  }
});
