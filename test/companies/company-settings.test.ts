// /settings/company and listing review (/settings/job-listings/{id}/approve|reject) over HTTP with
// real users' access tokens: members read, only an ADMIN changes settings or reviews; API keys are
// refused; another company's listing is not found; the review moves are the lifecycle's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { dashboardBearer } from '../identity/oauth-client.ts';
import { startListeningApp, type ListeningApp } from '../identity/server.ts';

let server: ListeningApp;
let counter = 0;
const unique = (name: string) => `${name}.${Date.now().toString(36)}${(counter += 1)}@example.com`;

const signIn = (email: string) => dashboardBearer(server, email);

type Method = 'GET' | 'POST' | 'PATCH';
const inject = (method: Method, url: string, headers: Record<string, string>, payload?: unknown) =>
  server.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

let admin: Record<string, string>;
let member: Record<string, string>;
let stranger: Record<string, string>;

beforeAll(async () => {
  server = await startListeningApp({ DEV_SIGN_IN: 'true' });
  admin = await signIn(unique('admin'));
  const memberEmail = unique('member');
  expect((await inject('POST', '/settings/members/invitations', admin, { email: memberEmail, role: 'MEMBER' })).statusCode).toBe(201);
  member = await signIn(memberEmail);
  stranger = await signIn(unique('stranger'));
});
afterAll(() => server.close());

async function draftListing(headers: Record<string, string>, position = 'Welder'): Promise<string> {
  const res = await inject('POST', '/public/v1/job-listings', headers, { position, positionType: 'FULL_TIME', workPlaceType: 'ON_SITE' });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

describe('/settings/company', () => {
  it('any member reads the settings; only an ADMIN changes name, default language and the review switch', async () => {
    const read = await inject('GET', '/settings/company', member);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ name: expect.any(String), defaultLanguage: 'en', requiresListingReview: false });

    expectErrorEnvelope(await inject('PATCH', '/settings/company', member, { name: 'Taken over' }), 403, 'FORBIDDEN', '/settings/company');

    const changed = await inject('PATCH', '/settings/company', admin, { name: '  Acme Hiring ', defaultLanguage: 'de-ch', requiresListingReview: true });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Acme Hiring', defaultLanguage: 'de-CH', requiresListingReview: true });
    expect((await inject('GET', '/settings/company', member)).json()).toMatchObject({ name: 'Acme Hiring', requiresListingReview: true });
    // Another company's settings are untouched.
    expect((await inject('GET', '/settings/company', stranger)).json()).toMatchObject({ requiresListingReview: false });
    // New listings take the default language.
    const id = await draftListing(admin);
    expect((await inject('GET', `/public/v1/job-listings/${id}`, admin)).json().position.sourceLanguage).toBe('de-CH');

    const off = await inject('PATCH', '/settings/company', admin, { requiresListingReview: false, defaultLanguage: 'en' });
    expect(off.json()).toMatchObject({ requiresListingReview: false, defaultLanguage: 'en' });
  });

  it('refuses bad input with the envelope and changes nothing', async () => {
    const before = (await inject('GET', '/settings/company', admin)).json();
    const badLanguage = expectErrorEnvelope(await inject('PATCH', '/settings/company', admin, { defaultLanguage: 'not a tag!' }), 422, 'VALIDATION_ERROR', '/settings/company');
    expect(badLanguage.details).toEqual([expect.objectContaining({ field: 'defaultLanguage' })]);
    expect((await inject('PATCH', '/settings/company', admin, { name: '   ' })).statusCode).toBe(422);
    expect((await inject('PATCH', '/settings/company', admin, {})).statusCode).toBe(422);
    expect((await inject('PATCH', '/settings/company', admin, { id: 'x' })).statusCode).toBe(422);
    expect((await inject('PATCH', '/settings/company', admin, { requiresListingReview: 'yes' })).statusCode).toBe(422);
    expect((await inject('GET', '/settings/company', admin)).json()).toEqual(before);
  });

  it('requiresRejectionReason: off by default, an ADMIN turns it on, a move to REJECTED then needs a reason', async () => {
    const owner = await signIn(unique('reasons-admin'));
    expect((await inject('GET', '/settings/company', owner)).json()).toMatchObject({ requiresRejectionReason: false });
    expectErrorEnvelope(await inject('PATCH', '/settings/company', owner, { requiresRejectionReason: 'yes' }), 422, 'VALIDATION_ERROR', '/settings/company');
    const on = await inject('PATCH', '/settings/company', owner, { requiresRejectionReason: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ requiresRejectionReason: true, requiresListingReview: false });
    // The owner's company now refuses a rejection without a reason.
    const listing = await draftListing(owner, 'Rigger');
    expect((await inject('POST', `/public/v1/job-listings/${listing}/publish`, owner)).statusCode).toBe(200);
    const submitted = await inject('POST', '/public/v1/applications', owner, {
      jobListingId: listing,
      candidate: { firstName: 'Ada', lastName: 'Lovelace', email: unique('ada') },
    });
    expect(submitted.statusCode).toBe(201);
    const path = `/public/v1/applications/${submitted.json().id}/status`;
    expectErrorEnvelope(await inject('PATCH', path, owner, { status: 'REJECTED' }), 422, 'VALIDATION_ERROR', path);
    // Another company (the admin of the first tests) is not affected.
    expect((await inject('GET', '/settings/company', admin)).json()).toMatchObject({ requiresRejectionReason: false });
  });

  it('is for users only: an API key or no credential answers 401', async () => {
    const tenant = await server.tenant();
    expect((await inject('GET', '/settings/company', tenant.headers)).statusCode).toBe(401);
    expect((await inject('GET', '/settings/company', {})).statusCode).toBe(401);
  });
});

describe('listing review over HTTP', () => {
  it('with review on, publish waits in UNDER_REVIEW; an ADMIN approves (ACTIVE) or rejects with a reason (DRAFT)', async () => {
    await inject('PATCH', '/settings/company', admin, { requiresListingReview: true });
    try {
      const first = await draftListing(admin, 'Crane operator');
      const second = await draftListing(admin, 'Forklift driver');
      for (const id of [first, second]) {
        const published = await inject('POST', `/public/v1/job-listings/${id}/publish`, admin);
        expect(published.json().status).toBe('UNDER_REVIEW');
      }
      // A member sees the queue but cannot act on it.
      const queue = await inject('GET', '/public/v1/job-listings?status=UNDER_REVIEW', member);
      expect(queue.json().data.map((item: { id: string }) => item.id)).toEqual(expect.arrayContaining([first, second]));
      expectErrorEnvelope(await inject('POST', `/settings/job-listings/${first}/approve`, member), 403, 'FORBIDDEN', `/settings/job-listings/${first}/approve`);

      const approved = await inject('POST', `/settings/job-listings/${first}/approve`, admin);
      expect(approved.statusCode).toBe(200);
      expect(approved.json()).toMatchObject({ id: first, status: 'ACTIVE', publishedAt: expect.any(String) });

      const missingReason = await inject('POST', `/settings/job-listings/${second}/reject`, admin, { reason: '' });
      expect(missingReason.statusCode).toBe(422);
      const rejected = await inject('POST', `/settings/job-listings/${second}/reject`, admin, { reason: 'Salary range missing' });
      expect(rejected.statusCode).toBe(200);
      expect(rejected.json()).toMatchObject({ id: second, status: 'DRAFT', rejectionReason: 'Salary range missing' });

      // Only UNDER_REVIEW can be reviewed; another company's listing does not exist for them.
      expectErrorEnvelope(await inject('POST', `/settings/job-listings/${first}/approve`, admin), 409, 'CONFLICT', `/settings/job-listings/${first}/approve`);
      expect((await inject('POST', `/settings/job-listings/${second}/approve`, stranger)).statusCode).toBe(404);
    } finally {
      await inject('PATCH', '/settings/company', admin, { requiresListingReview: false });
    }
  });

  it('an API key cannot review, even with jobs:write', async () => {
    const tenant = await server.tenant(['jobs:write']);
    const id = (await server.app.inject({
      method: 'POST',
      url: '/public/v1/job-listings',
      headers: tenant.headers,
      payload: { position: 'Tester', positionType: 'FULL_TIME', workPlaceType: 'REMOTE' },
    })).json().id;
    expect((await inject('POST', `/settings/job-listings/${id}/approve`, tenant.headers)).statusCode).toBe(401);
  });
});
