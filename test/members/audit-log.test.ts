// /settings/audit-log over HTTP with real users' access tokens: every audited action, done through
// the API by a person or an API key, appears once with who, what and when, newest first; filters,
// cursor pages, ADMIN only, tenant isolation, refused filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobListing } from '../../src/modules/job-listings/service.ts';
import { getMembership } from '../../src/modules/users/service.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { applicant } from '../helpers/factories.ts';
import { userByEmail } from '../helpers/users.ts';
import { dashboardBearer } from '../identity/oauth-client.ts';
import { startListeningApp, type ListeningApp } from '../identity/server.ts';

let server: ListeningApp;
beforeAll(async () => {
  server = await startListeningApp();
});
afterAll(() => server.close());

let counter = 0;
const unique = (name: string) => `${name}.${Date.now().toString(36)}${(counter += 1)}@example.com`;

async function companyOf(email: string): Promise<{ companyId: string; userId: string }> {
  const user = await userByEmail(server.ctx, email);
  const membership = await getMembership(server.ctx, user!.id);
  return { companyId: membership!.companyId, userId: user!.id };
}

const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) =>
  server.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

interface Entry {
  id: string;
  occurredAt: string;
  actor: { type: string; id: string | null; label: string };
  action: string;
  target: { type: string; id: string | null; label: string | null };
  detail: Record<string, unknown>;
}

describe('/settings/audit-log', () => {
  let adminEmail: string;
  let admin: Record<string, string>;
  let adminId: string;
  let companyId: string;
  let keyId: string;
  let key: Record<string, string>;
  const done: Record<string, string> = {};

  beforeAll(async () => {
    adminEmail = unique('auditor');
    admin = await dashboardBearer(server, adminEmail);
    ({ companyId, userId: adminId } = await companyOf(adminEmail));

    // A person creates, renames and revokes keys; invites, cancels, removes.
    const created = await inject('POST', '/settings/api-keys', admin, { label: 'ATS sync', scopes: ['jobs:write', 'jobs:read', 'applications:write', 'candidates:write', 'candidates:read', 'webhooks:manage'] });
    expect(created.statusCode, created.body).toBe(201);
    keyId = created.json().id;
    key = { 'x-api-key': created.json().rawKey };
    expect((await inject('PATCH', `/settings/api-keys/${keyId}`, admin, { label: 'ATS sync (prod)' })).statusCode).toBe(200);
    const spare = (await inject('POST', '/settings/api-keys', admin, { label: 'Spare', scopes: ['jobs:read'] })).json();
    expect((await inject('DELETE', `/settings/api-keys/${spare.id}`, admin)).statusCode).toBe(204);
    expect((await inject('DELETE', `/settings/api-keys/${spare.id}`, admin)).statusCode).toBe(204); // twice: one entry
    done.spare = spare.id;
    const invited = (await inject('POST', '/settings/members/invitations', admin, { email: unique('cancelled'), role: 'MEMBER' })).json();
    expect((await inject('DELETE', `/settings/members/invitations/${invited.id}`, admin)).statusCode).toBe(204);
    done.cancelled = invited.id;
    const memberEmail = unique('leaver');
    expect((await inject('POST', '/settings/members/invitations', admin, { email: memberEmail, role: 'MEMBER' })).statusCode).toBe(201);
    await dashboardBearer(server, memberEmail);
    done.member = (await companyOf(memberEmail)).userId;
    expect((await inject('DELETE', `/settings/members/${done.member}`, admin)).statusCode).toBe(204);

    // The key manages webhooks, publishes a listing and erases a candidate.
    const hook = (await inject('POST', '/public/v1/webhooks', key, { url: 'http://127.0.0.1:9/hook', events: ['job_listing.published'] })).json();
    done.hook = hook.id;
    expect((await inject('PATCH', `/public/v1/webhooks/${hook.id}`, key, { active: false })).statusCode).toBe(200);
    expect((await inject('POST', `/public/v1/webhooks/${hook.id}/rotate-secret`, key)).statusCode).toBe(200);
    expect((await inject('DELETE', `/public/v1/webhooks/${hook.id}`, key)).statusCode).toBe(204);
    const { listing } = await createJobListing(server.ctx, companyId, { position: 'Data engineer', positionType: 'FULL_TIME', workPlaceType: 'REMOTE' });
    done.listing = listing.id;
    expect((await inject('POST', `/public/v1/job-listings/${listing.id}/publish`, key)).statusCode).toBe(200);
    const applied = await inject('POST', '/public/v1/applications', key, { jobListingId: listing.id, candidate: applicant(unique('erased')) });
    expect(applied.statusCode, applied.body).toBe(201);
    done.candidate = applied.json().candidate.id;
    done.application = applied.json().id;
    expect((await inject('DELETE', `/public/v1/candidates/${done.candidate}`, key)).statusCode).toBe(204);
  });

  it('lists every action once, newest first, with who, what and when', async () => {
    const res = await inject('GET', '/settings/audit-log?size=100', admin);
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json().data as Entry[];
    const person = { type: 'USER', id: adminId, label: 'Test User' }; // the development sign-in's name
    const integration = { type: 'API_KEY', id: keyId, label: 'ATS sync (prod)' };
    const summary = entries.map((entry) => [entry.action, entry.actor, entry.target]);
    expect(summary).toEqual(
      [
        ['api_key.created', person, { type: 'API_KEY', id: keyId, label: 'ATS sync' }],
        ['api_key.renamed', person, { type: 'API_KEY', id: keyId, label: 'ATS sync (prod)' }],
        ['api_key.created', person, { type: 'API_KEY', id: done.spare, label: 'Spare' }],
        ['api_key.revoked', person, { type: 'API_KEY', id: done.spare, label: 'Spare' }],
        ['member.invited', person, { type: 'INVITATION', id: done.cancelled, label: expect.stringMatching(/^cancelled\./) }],
        ['member.invitation_cancelled', person, { type: 'INVITATION', id: done.cancelled, label: expect.stringMatching(/^cancelled\./) }],
        ['member.invited', person, { type: 'INVITATION', id: expect.any(String), label: expect.stringMatching(/^leaver\./) }],
        ['member.removed', person, { type: 'USER', id: done.member, label: expect.stringMatching(/^leaver\./) }],
        ['webhook.created', integration, { type: 'WEBHOOK_SUBSCRIPTION', id: done.hook, label: 'http://127.0.0.1:9/hook' }],
        ['webhook.updated', integration, { type: 'WEBHOOK_SUBSCRIPTION', id: done.hook, label: 'http://127.0.0.1:9/hook' }],
        ['webhook.secret_rotated', integration, { type: 'WEBHOOK_SUBSCRIPTION', id: done.hook, label: 'http://127.0.0.1:9/hook' }],
        ['webhook.deleted', integration, { type: 'WEBHOOK_SUBSCRIPTION', id: done.hook, label: 'http://127.0.0.1:9/hook' }],
        ['job_listing.published', integration, { type: 'JOB_LISTING', id: done.listing, label: 'Data engineer' }],
        ['candidate.erased', integration, { type: 'CANDIDATE', id: done.candidate, label: null }],
      ].reverse(),
    );
    const detailOf = (action: string) => entries.find((entry) => entry.action === action)!.detail;
    expect(detailOf('api_key.renamed')).toEqual({ previousLabel: 'ATS sync' });
    expect(detailOf('webhook.updated')).toEqual({ active: { from: true, to: false } });
    expect(detailOf('job_listing.published')).toEqual({ from: 'DRAFT' });
    expect(detailOf('candidate.erased')).toEqual({ applicationIds: [done.application] });
    expect(detailOf('member.removed')).toEqual({ role: 'MEMBER' });
    // Nothing of an erased candidate: no name, no e-mail address.
    expect(JSON.stringify(entries)).not.toMatch(/erased\./);
    const times = entries.map((entry) => entry.occurredAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by actions, by actor and by period, and pages by cursor with the same filters', async () => {
    const read = async (query: string) => {
      const res = await inject('GET', `/settings/audit-log?${query}`, admin);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: Entry[]; pagination: { totalElements: number; nextCursor: string | null } };
    };
    const keys = await read('action=api_key.created,api_key.revoked');
    expect(keys.data.map((entry) => entry.action)).toEqual(['api_key.revoked', 'api_key.created', 'api_key.created']);
    const byKey = await read(`actorId=${keyId}`);
    expect(byKey.pagination.totalElements).toBe(6);
    expect(byKey.data.every((entry) => entry.actor.id === keyId)).toBe(true);
    const all = (await read('size=100')).data;
    const middle = all[6].occurredAt;
    const before = await read(`to=${encodeURIComponent(middle)}&size=100`);
    expect(before.data.every((entry) => entry.occurredAt < middle)).toBe(true);
    const after = await read(`from=${encodeURIComponent(middle)}&size=100`);
    expect(after.data.length + before.data.length).toBe(all.length);
    expect((await read(`from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`)).data).toEqual([]);

    const walked: string[] = [];
    let page = await read(`actorId=${adminId}&size=3`);
    for (;;) {
      walked.push(...page.data.map((entry) => entry.id));
      if (!page.pagination.nextCursor) break;
      page = await read(`actorId=${adminId}&size=3&cursor=${encodeURIComponent(page.pagination.nextCursor)}`);
    }
    expect(walked).toEqual(all.filter((entry) => entry.actor.id === adminId).map((entry) => entry.id));
    // A cursor is bound to its filters.
    const first = await read(`actorId=${adminId}&size=3`);
    expectErrorEnvelope(
      await inject('GET', `/settings/audit-log?size=3&cursor=${encodeURIComponent(first.pagination.nextCursor!)}`, admin),
      422,
      'VALIDATION_ERROR',
      '/settings/audit-log',
    );
  });

  it('refuses unknown actions, an empty period and bad dates (422)', async () => {
    for (const query of ['action=api_key.exploded', 'action=', 'from=yesterday', `from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`, 'actorId=me']) {
      const res = await inject('GET', `/settings/audit-log?${query}`, admin);
      expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', '/settings/audit-log');
    }
  });

  it('is for ADMINs: a MEMBER gets 403, an API key 401; another company sees none of it', async () => {
    const memberEmail = unique('reader');
    expect((await inject('POST', '/settings/members/invitations', admin, { email: memberEmail, role: 'MEMBER' })).statusCode).toBe(201);
    const member = await dashboardBearer(server, memberEmail);
    expectErrorEnvelope(await inject('GET', '/settings/audit-log', member), 403, 'FORBIDDEN', '/settings/audit-log');
    expect((await inject('GET', '/settings/audit-log', key)).statusCode).toBe(401);
    const stranger = await dashboardBearer(server, unique('stranger'));
    const theirs = (await inject('GET', '/settings/audit-log?size=100', stranger)).json().data as Entry[];
    expect(theirs.some((entry) => [keyId, done.hook, done.listing, done.candidate].includes(entry.target.id ?? ''))).toBe(false);
  });
});
