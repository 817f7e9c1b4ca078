// /settings/members over HTTP with real users' access tokens (the development e-mail sign-in):
// who may list, invite, cancel and remove; invitations accepted at sign-in; tenant isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMembership } from '../../src/modules/users/service.ts';
import { userByEmail } from '../helpers/users.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { DAY_MS } from '../helpers/clock.ts';
import { dashboardBearer } from '../identity/oauth-client.ts';
import { startListeningApp, type ListeningApp } from '../identity/server.ts';

let server: ListeningApp;

beforeAll(async () => {
  server = await startListeningApp();
});
afterAll(() => server.close());

let counter = 0;
const unique = (name: string) => `${name}.${Date.now().toString(36)}${(counter += 1)}@example.com`;

/** Signs the address in through our authorization server (dev sign-in) and returns Bearer headers. */
const signIn = (email: string) => dashboardBearer(server, email);

async function companyOf(email: string): Promise<{ companyId: string; role: string; userId: string }> {
  const user = await userByEmail(server.ctx, email);
  const membership = await getMembership(server.ctx, user!.id);
  return { companyId: membership!.companyId, role: membership!.role, userId: user!.id };
}

const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) =>
  server.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

describe('/settings/members', () => {
  let adminEmail: string;
  let admin: Record<string, string>;

  beforeAll(async () => {
    adminEmail = unique('admin');
    admin = await signIn(adminEmail);
  });

  it('an ADMIN invites; the invitee joins with the invited role when signing in; the invitation closes', async () => {
    const inviteeEmail = unique('Invitee').toUpperCase();
    const created = await inject('POST', '/settings/members/invitations', admin, { email: inviteeEmail, role: 'ADMIN' });
    expect(created.statusCode).toBe(201);
    const invitation = created.json();
    const { userId: adminId, companyId } = await companyOf(adminEmail);
    expect(invitation).toEqual({
      id: expect.any(String),
      email: inviteeEmail.toLowerCase(),
      role: 'ADMIN',
      invitedBy: adminId,
      createdAt: expect.any(String),
      expiresAt: new Date(new Date(invitation.createdAt).getTime() + 14 * DAY_MS).toISOString(),
    });
    const open = await inject('GET', '/settings/members/invitations', admin);
    expect(open.json()).toMatchObject({ data: [{ id: invitation.id }], pagination: { totalElements: 1 } });

    const invitee = await signIn(inviteeEmail.toLowerCase());
    expect(await companyOf(inviteeEmail.toLowerCase())).toMatchObject({ companyId, role: 'ADMIN' });
    // As an ADMIN the newcomer may invite in turn; the invitation is no longer open.
    expect((await inject('GET', '/settings/members/invitations', invitee)).json().data).toEqual([]);
    const members = (await inject('GET', '/settings/members', invitee)).json();
    expect(members.data.map((m: { email: string }) => m.email)).toEqual([inviteeEmail.toLowerCase(), adminEmail]);
    expect(members.pagination).toEqual({ page: 0, size: 20, totalElements: 2, totalPages: 1, nextCursor: null });
  });

  it('a MEMBER may list members and invitations but not invite, cancel or remove (403)', async () => {
    const memberEmail = unique('member');
    expect((await inject('POST', '/settings/members/invitations', admin, { email: memberEmail, role: 'MEMBER' })).statusCode).toBe(201);
    const member = await signIn(memberEmail);
    const pending = (await inject('POST', '/settings/members/invitations', admin, { email: unique('later'), role: 'MEMBER' })).json();

    expect((await inject('GET', '/settings/members', member)).statusCode).toBe(200);
    expect((await inject('GET', '/settings/members/invitations', member)).json().data).toEqual([expect.objectContaining({ id: pending.id })]);
    const invite = await inject('POST', '/settings/members/invitations', member, { email: unique('x'), role: 'MEMBER' });
    expect(expectErrorEnvelope(invite, 403, 'FORBIDDEN', '/settings/members/invitations').details).toEqual([
      { field: 'role', message: 'requires ADMIN' },
    ]);
    const cancel = await inject('DELETE', `/settings/members/invitations/${pending.id}`, member);
    expectErrorEnvelope(cancel, 403, 'FORBIDDEN', `/settings/members/invitations/${pending.id}`);
    const { userId: adminId } = await companyOf(adminEmail);
    expectErrorEnvelope(await inject('DELETE', `/settings/members/${adminId}`, member), 403, 'FORBIDDEN', `/settings/members/${adminId}`);
  });

  it('refuses an invitation for a member, a second open one for the same address, and bad input', async () => {
    const again = await inject('POST', '/settings/members/invitations', admin, { email: adminEmail, role: 'MEMBER' });
    expect(expectErrorEnvelope(again, 409, 'CONFLICT', '/settings/members/invitations').details).toEqual([
      { field: 'email', message: 'already a member' },
    ]);
    const email = unique('twice');
    expect((await inject('POST', '/settings/members/invitations', admin, { email, role: 'MEMBER' })).statusCode).toBe(201);
    const twice = await inject('POST', '/settings/members/invitations', admin, { email, role: 'ADMIN' });
    expectErrorEnvelope(twice, 409, 'CONFLICT', '/settings/members/invitations');

    const bad = await inject('POST', '/settings/members/invitations', admin, { email: 'not-an-address', role: 'OWNER' });
    const details = expectErrorEnvelope(bad, 422, 'VALIDATION_ERROR', '/settings/members/invitations').details as { field: string }[];
    expect(details.map((d) => d.field).sort()).toEqual(['role']);
    const badEmail = await inject('POST', '/settings/members/invitations', admin, { email: 'not-an-address', role: 'MEMBER' });
    expect(expectErrorEnvelope(badEmail, 422, 'VALIDATION_ERROR', '/settings/members/invitations').details).toEqual([
      { field: 'email', message: 'must be an e-mail address' },
    ]);
    const extra = await inject('POST', '/settings/members/invitations', admin, { email: unique('e'), role: 'MEMBER', companyId: 'x' });
    expectErrorEnvelope(extra, 422, 'VALIDATION_ERROR', '/settings/members/invitations');
  });

  it('a cancelled or expired invitation is not accepted: the person gets a company of their own', async () => {
    const { companyId } = await companyOf(adminEmail);
    const cancelledEmail = unique('cancelled');
    const cancelled = (await inject('POST', '/settings/members/invitations', admin, { email: cancelledEmail, role: 'MEMBER' })).json();
    expect((await inject('DELETE', `/settings/members/invitations/${cancelled.id}`, admin)).statusCode).toBe(204);
    expectErrorEnvelope(
      await inject('DELETE', `/settings/members/invitations/${cancelled.id}`, admin),
      404,
      'NOT_FOUND',
      `/settings/members/invitations/${cancelled.id}`,
    );
    await signIn(cancelledEmail);
    expect(await companyOf(cancelledEmail)).toMatchObject({ role: 'ADMIN' });
    expect((await companyOf(cancelledEmail)).companyId).not.toBe(companyId);

    const lateEmail = unique('late');
    expect((await inject('POST', '/settings/members/invitations', admin, { email: lateEmail, role: 'MEMBER' })).statusCode).toBe(201);
    server.clock.advance(15 * DAY_MS);
    try {
      expect((await inject('GET', '/settings/members/invitations', admin)).statusCode).toBe(401); // the token expired too
      const { signInVerifiedUser } = await import('../../src/modules/users/service.ts');
      await signInVerifiedUser(server.ctx, { email: lateEmail, emailVerified: true });
      expect((await companyOf(lateEmail)).companyId).not.toBe(companyId);
    } finally {
      server.clock.advance(-15 * DAY_MS);
    }
  });

  it('an expired invitation can be sent again', async () => {
    const email = unique('resend');
    expect((await inject('POST', '/settings/members/invitations', admin, { email, role: 'MEMBER' })).statusCode).toBe(201);
    server.clock.advance(15 * DAY_MS);
    try {
      const { inviteMember } = await import('../../src/modules/users/members.ts');
      const { companyId } = await companyOf(adminEmail);
      const again = await inviteMember(server.ctx, { companyId, email, role: 'ADMIN', invitedBy: null });
      expect(again).toMatchObject({ email, role: 'ADMIN', invitedBy: null });
    } finally {
      server.clock.advance(-15 * DAY_MS);
    }
  });

  it('removing a member stops their token at once; the last ADMIN stays; another company cannot reach them', async () => {
    const { companyId } = await companyOf(adminEmail);
    const leaverEmail = unique('leaver');
    await inject('POST', '/settings/members/invitations', admin, { email: leaverEmail, role: 'MEMBER' });
    const leaver = await signIn(leaverEmail);
    const { userId: leaverId } = await companyOf(leaverEmail);
    expect((await inject('GET', '/settings/members', leaver)).statusCode).toBe(200);

    // Another company's ADMIN sees neither the member nor the invitations, and cannot remove them.
    const outsiderEmail = unique('outsider');
    const outsider = await signIn(outsiderEmail);
    expect((await inject('GET', '/settings/members', outsider)).json().data.map((m: { email: string }) => m.email)).toEqual([outsiderEmail]);
    expect((await inject('GET', '/settings/members/invitations', outsider)).json().data).toEqual([]);
    expectErrorEnvelope(await inject('DELETE', `/settings/members/${leaverId}`, outsider), 404, 'NOT_FOUND', `/settings/members/${leaverId}`);
    expect(await companyOf(leaverEmail)).toMatchObject({ companyId });

    expect((await inject('DELETE', `/settings/members/${leaverId}`, admin)).statusCode).toBe(204);
    const after = await inject('GET', '/settings/members', leaver);
    expectErrorEnvelope(after, 401, 'UNAUTHORIZED', '/settings/members');
    expect(after.headers['www-authenticate']).toMatch(/^Bearer/);

    // The outsider is the only ADMIN of their company.
    const { userId: outsiderId } = await companyOf(outsiderEmail);
    const last = await inject('DELETE', `/settings/members/${outsiderId}`, outsider);
    expectErrorEnvelope(last, 409, 'CONFLICT', `/settings/members/${outsiderId}`);
    expect((await inject('GET', '/settings/members', outsider)).statusCode).toBe(200);
  });

  it('takes only a signed-in user\'s token: an API key gets 401', async () => {
    const tenant = await server.tenant();
    const res = await inject('GET', '/settings/members', tenant.headers);
    expectErrorEnvelope(res, 401, 'UNAUTHORIZED', '/settings/members');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('is in the OpenAPI document with the Member and Invitation schemas', async () => {
    const doc = (await server.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/settings/members', '/settings/members/{userId}', '/settings/members/invitations', '/settings/members/invitations/{id}']),
    );
    expect(doc.components.schemas).toHaveProperty('Member');
    expect(doc.components.schemas).toHaveProperty('Invitation');
    expect(doc.paths['/settings/members/invitations'].post.responses).toHaveProperty('409');
    expect(doc.paths['/settings/members/invitations'].post.security).toEqual([{ oauth2: [] }]); // openIdConnect (the same tokens) is in the top-level security only
  });
});
