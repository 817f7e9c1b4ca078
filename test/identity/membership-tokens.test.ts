// Tokens are bound to the membership they were issued for: a member removed from a company, who
// later joins a company again (re-invited, or a company of their own at the next sign-in), gets
// new tokens for the new membership, and every token of the old one stays refused: the dashboard's
// access and refresh tokens and a third-party application's.
import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type CreatedClient } from '../../src/modules/oauth/clients.ts';
import { getMembership } from '../../src/modules/users/service.ts';
import { userByEmail } from '../helpers/users.ts';
import { signInAndGetTokens, type FlowResult } from './oauth-client.ts';
import { startListeningApp, type ListeningApp } from './server.ts';

let t: ListeningApp;
let partner: CreatedClient;
const PARTNER_REDIRECT = 'http://localhost:9999/cb';

beforeAll(async () => {
  t = await startListeningApp();
  partner = await createClient(t.ctx, { name: 'Partner ATS', redirectUris: [PARTNER_REDIRECT], public: false });
});
afterAll(async () => t.close());

const email = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

const dashboard = (address: string) =>
  signInAndGetTokens({ issuer: t.issuer, clientId: 'dashboard', redirectUri: t.dashboardRedirect, scope: 'openid profile email', email: address });

const thirdParty = (address: string, browser?: FlowResult['browser']) =>
  signInAndGetTokens({
    issuer: t.issuer,
    clientId: partner.clientId,
    clientSecret: partner.clientSecret,
    redirectUri: PARTNER_REDIRECT,
    scope: 'openid email jobs:read',
    email: address,
    consent: 'approve',
    ...(browser ? { browser } : {}),
  });

async function call(method: string, path: string, token: string, body?: unknown) {
  const response = await t.app.inject({
    method: method as 'GET',
    url: path,
    headers: { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: response.statusCode, body: response.body ? (response.json() as Record<string, unknown>) : undefined };
}

async function membershipOf(address: string) {
  const user = await userByEmail(t.ctx, address);
  return getMembership(t.ctx, user!.id);
}

/** The refresh token is refused by our token endpoint (rather than yielding a new access token). */
async function expectRefreshRefused(flow: FlowResult): Promise<void> {
  await expect(oidc.refreshTokenGrant(flow.config, flow.tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
}

describe('a removed member joining again', () => {
  let admin: FlowResult;
  let companyId: string;

  beforeAll(async () => {
    const adminEmail = email('admin');
    admin = await dashboard(adminEmail);
    companyId = (await membershipOf(adminEmail))!.companyId;
  });

  const invite = async (address: string, role: 'ADMIN' | 'MEMBER') =>
    expect((await call('POST', '/settings/members/invitations', admin.tokens.access_token, { email: address, role })).status).toBe(201);
  const remove = async (address: string) => {
    const user = await userByEmail(t.ctx, address);
    expect((await call('DELETE', `/settings/members/${user!.id}`, admin.tokens.access_token)).status).toBe(204);
  };

  it('re-invited: the old dashboard and third-party tokens (access and refresh) stay refused; new ones work', async () => {
    const address = email('member');
    await invite(address, 'MEMBER');
    const oldDashboard = await dashboard(address);
    const oldPartner = await thirdParty(address);
    const firstMembership = await membershipOf(address);
    expect(firstMembership).toMatchObject({ companyId, role: 'MEMBER' });
    expect((await call('GET', '/settings/members', oldDashboard.tokens.access_token)).status).toBe(200);
    expect((await call('GET', '/public/v1/job-listings', oldPartner.tokens.access_token)).status).toBe(200);

    await remove(address);
    expect((await call('GET', '/settings/members', oldDashboard.tokens.access_token)).status).toBe(401);

    // Invited again, as ADMIN this time, and signed in again: a new membership.
    await invite(address, 'ADMIN');
    const fresh = await dashboard(address);
    const secondMembership = await membershipOf(address);
    expect(secondMembership).toMatchObject({ companyId, role: 'ADMIN' });
    expect(secondMembership!.id).not.toBe(firstMembership!.id);
    expect((await call('GET', '/settings/members', fresh.tokens.access_token)).status).toBe(200);

    // Every token of the first membership stays dead: it does not become an ADMIN's token.
    for (const path of ['/settings/members', '/settings/api-keys', '/public/v1/job-listings']) {
      expect((await call('GET', path, oldDashboard.tokens.access_token)).status, path).toBe(401);
    }
    const mint = await call('POST', '/settings/api-keys', oldDashboard.tokens.access_token, { label: 'x', scopes: ['jobs:read'] });
    expect(mint.status).toBe(401);
    expect(mint.body).toMatchObject({ status: 401, error: 'UNAUTHORIZED' });
    expect((await call('GET', '/public/v1/job-listings', oldPartner.tokens.access_token)).status).toBe(401);
    await expectRefreshRefused(oldDashboard);
    await expectRefreshRefused(oldPartner);

    // The application, opened again in the same browser, asks for consent anew (its old grant is
    // not reused) and gets tokens of the new membership.
    const again = await thirdParty(address, oldPartner.browser);
    expect((await call('GET', '/public/v1/job-listings', again.tokens.access_token)).status).toBe(200);
    const refreshed = await oidc.refreshTokenGrant(again.config, again.tokens.refresh_token!);
    expect((await call('GET', '/public/v1/job-listings', refreshed.access_token)).status).toBe(200);
  });

  it('with a company of their own at the next sign-in: the old token is not an ADMIN token of it', async () => {
    const address = email('leaver');
    await invite(address, 'MEMBER');
    const old = await dashboard(address);
    await remove(address);

    const own = await dashboard(address);
    const membership = await membershipOf(address);
    expect(membership).toMatchObject({ role: 'ADMIN' });
    expect(membership!.companyId).not.toBe(companyId);
    expect((await call('POST', '/settings/api-keys', own.tokens.access_token, { label: 'mine', scopes: ['jobs:read'] })).status).toBe(201);

    const mint = await call('POST', '/settings/api-keys', old.tokens.access_token, { label: 'stolen', scopes: ['jobs:read'] });
    expect(mint.status).toBe(401);
    expect((await call('GET', '/settings/members', old.tokens.access_token)).status).toBe(401);
    await expectRefreshRefused(old);
  });
});
