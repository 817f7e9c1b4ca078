// /settings/sample-data over HTTP with real people's dashboard tokens: "Explore with sample data"
// fills the person's own company with the pipeline story (every list, total, search and the
// overview show it; no webhook is due for it), a second fill, a MEMBER and an API key are refused,
// and removal leaves the company exactly as it would be without it, with what the person made
// meanwhile kept. A server that does not offer it (SAMPLE_DATA=false, the default on PostgreSQL and
// in production mode) answers 403.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { queryRows } from '../../src/db/client.ts';
import { getMembership } from '../../src/modules/users/service.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { applicant, countEvents } from '../helpers/factories.ts';
import { userByEmail } from '../helpers/users.ts';
import { dashboardBearer } from '../identity/oauth-client.ts';
import { startListeningApp, type ListeningApp } from '../identity/server.ts';

let server: ListeningApp;
beforeAll(async () => {
  server = await startListeningApp();
});
afterAll(() => server?.close());

let counter = 0;
const unique = (name: string) => `${name}.${Date.now().toString(36)}${(counter += 1)}@example.org`;
const PATH = '/settings/sample-data';

const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) =>
  server.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

async function companyOf(email: string): Promise<string> {
  const user = await userByEmail(server.ctx, email);
  return (await getMembership(server.ctx, user!.id))!.companyId;
}

/** Everything a person sees of the company: ids and kept totals of each list, a search's total, the overview. */
async function snapshot(headers: Record<string, string>) {
  const read = async (url: string) => {
    const res = await inject('GET', url, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const ids = (page: { data: Array<{ id: string }> }) => page.data.map((row) => row.id).sort();
  const listings = await read('/public/v1/job-listings?size=100&status=DRAFT&status=ACTIVE&status=UNDER_REVIEW&status=CLOSED&status=ARCHIVED');
  const candidates = await read('/public/v1/candidates?size=100');
  const applications = await read('/public/v1/applications?size=100');
  const search = await read('/public/v1/candidates?q=okafor');
  const overview = await read('/public/v1/analytics/overview');
  return {
    listings: ids(listings),
    listingsTotal: listings.pagination.totalElements as number,
    candidates: ids(candidates),
    candidatesTotal: candidates.pagination.totalElements as number,
    applications: ids(applications),
    applicationsTotal: applications.pagination.totalElements as number,
    stages: new Set(applications.data.map((row: { status: string }) => row.status)),
    searchTotal: search.pagination.totalElements as number,
    overview,
  };
}

async function undispatchedEvents(companyId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    server.database.db,
    sql`select count(*)::int as n from events where company_id = ${companyId} and dispatched_at is null`,
  );
  return row.n;
}

describe('/settings/sample-data', () => {
  it('fills the company, is refused twice, to a MEMBER and to an API key; removal leaves exactly what the company made itself', async () => {
    const email = unique('explorer');
    const admin = await dashboardBearer(server, email);
    const companyId = await companyOf(email);

    // The company's own work before: a published listing with one applicant.
    const own = (await inject('POST', '/public/v1/job-listings', admin, { position: 'Warehouse lead', positionType: 'FULL_TIME', workPlaceType: 'ON_SITE' })).json();
    expect((await inject('POST', `/public/v1/job-listings/${own.id}/publish`, admin)).statusCode).toBe(200);
    expect((await inject('POST', '/public/v1/applications', admin, { jobListingId: own.id, candidate: applicant(unique('own')) })).statusCode).toBe(201);
    const before = await snapshot(admin);
    const undispatchedBefore = await undispatchedEvents(companyId);
    expect((await inject('GET', PATH, admin)).json()).toEqual({ offered: true, present: false, filledAt: null, jobListings: 0, candidates: 0 });

    const filled = await inject('POST', PATH, admin);
    expect(filled.statusCode, filled.body).toBe(201);
    expect(filled.json()).toMatchObject({ offered: true, present: true, jobListings: 6, candidates: 28 });
    expect((await inject('GET', PATH, admin)).json()).toEqual(filled.json());

    // Every list, kept total, search and figure shows it, as if made through the API.
    const during = await snapshot(admin);
    expect(during.listingsTotal).toBe(before.listingsTotal + 6);
    expect(during.listings).toHaveLength(during.listingsTotal);
    expect(during.candidatesTotal).toBe(before.candidatesTotal + 28);
    expect(during.candidates).toHaveLength(during.candidatesTotal);
    expect(during.applicationsTotal).toBe(before.applicationsTotal + 26);
    expect(during.stages).toEqual(new Set(['ACTIVE', 'IN_REVIEW', 'INTERVIEW', 'OFFER', 'HIRED', 'REJECTED', 'WITHDRAWN']));
    expect(during.searchTotal).toBe(1);
    expect(during.overview.totalApplications).toBe(before.overview.totalApplications + 26);
    expect(during.overview.hires).toBe(3);
    expect(during.overview.jobListingsByStatus.ACTIVE).toBe(before.overview.jobListingsByStatus.ACTIVE + 3);
    expect(during.overview.rejectionsByReason.some((row: { reason: unknown }) => row.reason !== null)).toBe(true);
    const backend = (await inject('GET', '/public/v1/job-listings?q=Senior%20Backend', admin)).json().data[0];
    const inGerman = (await inject('GET', `/public/v1/job-listings/${backend.id}`, { ...admin, 'accept-language': 'de' })).json();
    expect(JSON.stringify(inGerman.position)).toContain('Backend-Entwickler');
    const amara = (await inject('GET', '/public/v1/candidates?q=okafor', admin)).json().data[0];
    const notes = (await inject('GET', `/public/v1/candidates/${amara.id}/notes`, admin)).json();
    expect(notes.data).toHaveLength(1);
    // Its events are in the feed but none waits for a webhook.
    expect(await countEvents(server, companyId, 'application.created')).toBe(27);
    expect(await undispatchedEvents(companyId)).toBe(undispatchedBefore);

    // Twice: 409. A MEMBER: 403 to change it, reads it. An API key: 401.
    expectErrorEnvelope(await inject('POST', PATH, admin), 409, 'CONFLICT', PATH);
    const memberEmail = unique('member');
    expect((await inject('POST', '/settings/members/invitations', admin, { email: memberEmail, role: 'MEMBER' })).statusCode).toBe(201);
    const member = await dashboardBearer(server, memberEmail);
    expectErrorEnvelope(await inject('POST', PATH, member), 403, 'FORBIDDEN', PATH);
    expectErrorEnvelope(await inject('DELETE', PATH, member), 403, 'FORBIDDEN', PATH);
    expect((await inject('GET', PATH, member)).json().present).toBe(true);
    const key = (await inject('POST', '/settings/api-keys', admin, { label: 'Sync', scopes: ['jobs:read'] })).json();
    expect((await inject('GET', PATH, { 'x-api-key': key.rawKey })).statusCode).toBe(401);

    // Meanwhile the person makes a listing of their own, and works on the sample pipeline.
    const mine = (await inject('POST', '/public/v1/job-listings', admin, { position: 'Forklift driver', positionType: 'PART_TIME', workPlaceType: 'ON_SITE' })).json();
    const sampleApplication = (await inject('GET', '/public/v1/applications?size=100&status=ACTIVE', admin)).json().data.find(
      (row: { jobListingId: string }) => row.jobListingId !== own.id,
    );
    expect((await inject('PATCH', `/public/v1/applications/${sampleApplication.id}/status`, admin, { status: 'IN_REVIEW' })).statusCode).toBe(200);
    expect((await inject('POST', `/public/v1/candidates/${amara.id}/notes`, admin, { body: 'Call back on Monday' })).statusCode).toBe(201);
    // The company's own applicant applies to a sample listing too, a résumé sent with it.
    const ownApplicant = before.candidates[0];
    const ownEmail = (await inject('GET', `/public/v1/candidates/${ownApplicant}`, admin)).json().email;
    const resume = { fileName: 'cv.txt', contentBase64: Buffer.from('Warehouse lead, forklift licence.\n').toString('base64') };
    const toSample = await inject('POST', '/public/v1/applications', admin, { jobListingId: backend.id, candidate: applicant(ownEmail), resume });
    expect(toSample.statusCode, toSample.body).toBe(201);

    const removed = await inject('DELETE', PATH, admin);
    expect(removed.statusCode, removed.body).toBe(204);
    const after = await snapshot(admin);
    expect(after.listings).toEqual([...before.listings, mine.id].sort());
    expect(after.listingsTotal).toBe(before.listingsTotal + 1);
    expect(after.candidates).toEqual(before.candidates);
    // Their résumé stays theirs, no longer linked to the application removed with the sample listing.
    const files = (await inject('GET', `/public/v1/candidates/${ownApplicant}/files`, admin)).json().data;
    expect(files.map((file: { fileName: string; applicationId: string | null }) => [file.fileName, file.applicationId])).toEqual([['cv.txt', null]]);
    expect(after.candidatesTotal).toBe(before.candidatesTotal);
    expect(after.applications).toEqual(before.applications);
    expect(after.applicationsTotal).toBe(before.applicationsTotal);
    expect(after.searchTotal).toBe(0);
    const { jobListingsByStatus, generatedAt: _now, ...figures } = after.overview;
    const { jobListingsByStatus: byStatusBefore, generatedAt: _then, ...figuresBefore } = before.overview;
    expect(figures).toEqual(figuresBefore);
    expect(jobListingsByStatus).toEqual({ ...byStatusBefore, DRAFT: byStatusBefore.DRAFT + 1 });
    // The feed names no sample row any more; the company's own events stay.
    expect(await countEvents(server, companyId, 'application.created')).toBe(1);
    expect(await countEvents(server, companyId, 'job_listing.created')).toBe(2);
    expect(await countEvents(server, companyId, 'note.created')).toBe(0);

    expect((await inject('GET', PATH, admin)).json()).toEqual({ offered: true, present: false, filledAt: null, jobListings: 0, candidates: 0 });
    expectErrorEnvelope(await inject('DELETE', PATH, admin), 404, 'NOT_FOUND', PATH);
  });

  it('is offered by default only in development mode on the embedded database, and never in production mode', () => {
    expect(loadConfig({}).sampleData).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db' }).sampleData).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db', SAMPLE_DATA: 'true' }).sampleData).toBe(true);
    const production = { MODE: 'production', ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };
    expect(loadConfig(production).sampleData).toBe(false);
    expect(() => loadConfig({ ...production, SAMPLE_DATA: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, SAMPLE_DATA: 'true' })).toThrow(/SAMPLE_DATA/);
  });
});

describe('/settings/sample-data on a server that does not offer it', () => {
  let other: ListeningApp;
  beforeAll(async () => {
    other = await startListeningApp({ SAMPLE_DATA: 'false' });
  });
  afterAll(() => other?.close());

  it('says so, and answers a fill 403 in the envelope; removing what is not there is 404', async () => {
    const admin = await dashboardBearer(other, unique('prod-like'));
    const status = await other.app.inject({ method: 'GET', url: PATH, headers: admin });
    expect(status.json()).toEqual({ offered: false, present: false, filledAt: null, jobListings: 0, candidates: 0 });
    const refused = expectErrorEnvelope(await other.app.inject({ method: 'POST', url: PATH, headers: admin }), 403, 'FORBIDDEN', PATH);
    expect(refused.message).toMatch(/development mode on the embedded database/);
    expectErrorEnvelope(await other.app.inject({ method: 'DELETE', url: PATH, headers: admin }), 404, 'NOT_FOUND', PATH);
  });
});
