// The authorization server end to end, over real HTTP, with openid-client as the relying party:
// discovery, authorize with PKCE, our sign-in page (development e-mail sign-in), token, userinfo,
// refresh (rotating), revocation; then the access token on /settings/api-keys and /public/v1.
import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/modules/oauth/clients.ts';
import { userByEmail } from '../helpers/users.ts';
import { Browser } from './browser.ts';
import { discover, signInAndGetTokens } from './oauth-client.ts';
import { startListeningApp, type ListeningApp } from './server.ts';

let t: ListeningApp;
beforeAll(async () => {
  t = await startListeningApp();
});
afterAll(async () => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const email = () => `user-${randomUUID().slice(0, 8)}@example.com`;

async function dashboardTokens(address = email()) {
  return signInAndGetTokens({
    issuer: t.issuer,
    clientId: 'dashboard',
    redirectUri: t.dashboardRedirect,
    scope: 'openid profile email',
    email: address,
  });
}

async function api(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${t.baseUrl}${path}`, {
    method,
    headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

describe('authorization code flow with openid-client (dashboard, first-party)', () => {
  it('discovers, signs in with PKCE, exchanges the code, reads userinfo, refreshes (rotating) and revokes', async () => {
    const config = await discover(t.issuer, 'dashboard');
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(t.issuer);
    expect(metadata.authorization_endpoint).toBe(`${t.issuer}/authorize`);
    expect(metadata.token_endpoint).toBe(`${t.issuer}/token`);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.revocation_endpoint).toBe(`${t.issuer}/revoke`);
    expect(metadata.end_session_endpoint).toBe(`${t.issuer}/logout`);
    const jwks = (await (await fetch(metadata.jwks_uri!)).json()) as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const key of jwks.keys) expect(key.d).toBeUndefined(); // public parts only

    const address = email();
    const { tokens } = await dashboardTokens(address);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(900);
    expect(tokens.refresh_token).toBeTruthy();
    const claims = tokens.claims()!;
    const user = await userByEmail(t.ctx, address);
    expect(claims.sub).toBe(user!.id);

    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: user!.id, email: address, email_verified: true, name: 'Test User' });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    // Rotation: the used refresh token is spent.
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    const fresh = await dashboardTokens(address);
    expect((await api('GET', '/settings/api-keys', fresh.tokens.access_token)).status).toBe(200);
    await oidc.tokenRevocation(fresh.config, fresh.tokens.access_token);
    const afterRevoke = await api('GET', '/settings/api-keys', fresh.tokens.access_token);
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('uses the access token on /settings/api-keys: create (rawKey once), list (no rawKey), rename, revoke; the revoked key fails at once', async () => {
    const { tokens } = await dashboardTokens();
    const token = tokens.access_token;

    const created = await api('POST', '/settings/api-keys', token, { label: 'ATS sync', scopes: ['jobs:read'] });
    expect(created.status).toBe(201);
    expect(created.body.rawKey).toMatch(/^rk_live_/);
    expect(created.body).toMatchObject({ label: 'ATS sync', scopes: ['jobs:read'], active: true });

    const worksNow = await fetch(`${t.baseUrl}/public/v1/job-listings`, { headers: { 'x-api-key': created.body.rawKey } });
    expect(worksNow.status).toBe(200);

    const second = await api('POST', '/settings/api-keys', token, { label: 'Second', scopes: ['jobs:write'] });
    const listed = await api('GET', '/settings/api-keys', token);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((key: { id: string }) => key.id)).toEqual([second.body.id, created.body.id]);
    for (const key of listed.body.data) expect(key.rawKey).toBeUndefined();

    const renamed = await api('PATCH', `/settings/api-keys/${created.body.id}`, token, { label: 'ATS sync (prod)' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.label).toBe('ATS sync (prod)');
    expect(renamed.body.rawKey).toBeUndefined();

    const scopesChange = await api('PATCH', `/settings/api-keys/${created.body.id}`, token, { scopes: ['jobs:write'] });
    expect(scopesChange.status).toBe(422);
    expect(scopesChange.body.error).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(scopesChange.body.details)).toContain('scopes are immutable');

    const revoked = await api('DELETE', `/settings/api-keys/${created.body.id}`, token);
    expect(revoked.status).toBe(204);
    const refused = await fetch(`${t.baseUrl}/public/v1/job-listings`, { headers: { 'x-api-key': created.body.rawKey } });
    expect(refused.status).toBe(401);
    const after = await api('GET', '/settings/api-keys', token);
    expect(after.body.data.find((key: { id: string }) => key.id === created.body.id).active).toBe(false);
  });

  it("accepts the dashboard's token on /public/v1 with the user's company and every scope", async () => {
    const { tokens } = await dashboardTokens();
    const created = await api('POST', '/public/v1/job-listings', tokens.access_token, {
      position: 'Engineer',
      positionType: 'FULL_TIME',
      workPlaceType: 'REMOTE',
    });
    expect(created.status).toBe(201);
    const listed = await api('GET', '/public/v1/job-listings', tokens.access_token);
    expect(listed.body.data.map((item: { id: string }) => item.id)).toEqual([created.body.id]);
    expect((await api('GET', '/public/v1/analytics/overview', tokens.access_token)).status).toBe(200);
  });
});

describe('refusals', () => {
  it('refuses an authorization request without PKCE: no code, invalid_request back to the client', async () => {
    const url = new URL(`${t.issuer}/authorize`);
    url.search = new URLSearchParams({
      client_id: 'dashboard',
      response_type: 'code',
      redirect_uri: t.dashboardRedirect,
      scope: 'openid',
      state: 'xyz',
    }).toString();
    const page = await new Browser().request(url.href);
    expect(page.status).toBe(303);
    const back = new URL(page.location!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/PKCE/);
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('refuses a plain PKCE challenge method', async () => {
    const url = new URL(`${t.issuer}/authorize`);
    url.search = new URLSearchParams({
      client_id: 'dashboard',
      response_type: 'code',
      redirect_uri: t.dashboardRedirect,
      scope: 'openid',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'plain',
    }).toString();
    const page = await new Browser().request(url.href);
    expect(new URL(page.location!).searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses an unregistered redirect URI with an error page, never redirecting there', async () => {
    const url = new URL(`${t.issuer}/authorize`);
    url.search = new URLSearchParams({
      client_id: 'dashboard',
      response_type: 'code',
      redirect_uri: 'https://attacker.example/callback',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    const page = await new Browser().request(url.href);
    expect(page.status).toBe(400);
    expect(page.location).toBeUndefined();
    expect(page.body).toContain('redirect_uri');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('answers 401 with WWW-Authenticate for a missing, tampered, expired or revoked token', async () => {
    const missing = await fetch(`${t.baseUrl}/settings/api-keys`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="settings"');
    expect(await missing.json()).toMatchObject({ status: 401, error: 'UNAUTHORIZED', path: '/settings/api-keys' });

    const { tokens } = await dashboardTokens();
    const token = tokens.access_token;
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    const bad = await api('GET', '/settings/api-keys', tampered);
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="settings", error="invalid_token"');
    expect(bad.body.error).toBe('UNAUTHORIZED');

    const onPublic = await fetch(`${t.baseUrl}/public/v1/enums`, { headers: bearer(tampered) });
    expect(onPublic.status).toBe(401);
    expect(onPublic.headers.get('www-authenticate')).toContain('ApiKey realm="public"');
    expect(onPublic.headers.get('www-authenticate')).toContain('Bearer realm="public"');

    expect((await api('GET', '/settings/api-keys', token)).status).toBe(200);
    t.clock.advance(16 * 60 * 1000); // past the 15-minute lifetime
    try {
      expect((await api('GET', '/settings/api-keys', token)).status).toBe(401);
    } finally {
      t.clock.advance(-16 * 60 * 1000);
    }

    const again = await dashboardTokens();
    await oidc.tokenRevocation(again.config, again.tokens.refresh_token!); // revokes the whole grant
    expect((await api('GET', '/settings/api-keys', again.tokens.access_token)).status).toBe(401);
  });

  it('refuses an API key on /settings (bearer only)', async () => {
    const { apiKey } = await t.tenant();
    const response = await fetch(`${t.baseUrl}/settings/api-keys`, { headers: { 'x-api-key': apiKey } });
    expect(response.status).toBe(401);
  });

  it('ends tokens with the session: after sign-out the access token fails at once', async () => {
    const { tokens, browser, config } = await dashboardTokens();
    expect((await api('GET', '/settings/api-keys', tokens.access_token)).status).toBe(200);
    const logoutUrl = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token! });
    const confirm = await browser.request(logoutUrl.href);
    expect(confirm.status).toBe(200);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.body)![1];
    const done = await browser.follow(`${t.issuer}/logout/confirm`, 'none', { form: { xsrf, logout: 'yes' } });
    expect(done.status).toBe(200);
    expect((await api('GET', '/settings/api-keys', tokens.access_token)).status).toBe(401);
  });
});

describe('tenancy and roles', () => {
  it("never lets company A's token reach company B's keys or data", async () => {
    const a = await dashboardTokens();
    const b = await dashboardTokens();
    const bKey = await api('POST', '/settings/api-keys', b.tokens.access_token, { label: 'B key', scopes: ['jobs:read'] });
    const bListing = await api('POST', '/public/v1/job-listings', b.tokens.access_token, {
      position: 'B only',
      positionType: 'FULL_TIME',
      workPlaceType: 'REMOTE',
    });
    const tokenA = a.tokens.access_token;
    expect((await api('GET', '/settings/api-keys', tokenA)).body.data).toEqual([]);
    expect((await api('PATCH', `/settings/api-keys/${bKey.body.id}`, tokenA, { label: 'mine' })).status).toBe(404);
    expect((await api('DELETE', `/settings/api-keys/${bKey.body.id}`, tokenA)).status).toBe(404);
    expect((await api('GET', `/public/v1/job-listings/${bListing.body.id}`, tokenA)).status).toBe(404);
    expect((await api('GET', '/public/v1/job-listings', tokenA)).body.data).toEqual([]);
    const stillWorks = await fetch(`${t.baseUrl}/public/v1/job-listings`, { headers: { 'x-api-key': bKey.body.rawKey } });
    expect(stillWorks.status).toBe(200);
  });

  it('lets a MEMBER list keys but not create, rename or revoke them; a removed membership fails at once', async () => {
    const adminEmail = email();
    const admin = await dashboardTokens(adminEmail);
    const adminUser = await userByEmail(t.ctx, adminEmail);
    const companyOf = async (token: string) => (await api('POST', '/settings/api-keys', token, { label: 'k', scopes: ['jobs:read'] })).body;
    const adminKey = await companyOf(admin.tokens.access_token);
    const adminCompany = (await t.ctx.db.execute(`select company_id from api_keys where id = '${adminKey.id}'`)) as unknown as {
      rows: Array<{ company_id: string }>;
    };
    const companyId = adminCompany.rows[0].company_id;
    expect(adminUser).toBeDefined();

    const memberEmail = email();
    const member = await dashboardTokens(memberEmail);
    const memberUser = (await userByEmail(t.ctx, memberEmail))!;
    const ownCompany = (await t.ctx.db.execute(`select company_id from memberships where user_id = '${memberUser.id}'`)) as unknown as {
      rows: Array<{ company_id: string }>;
    };
    // Memberships change through invitations in the product; here the rows are set directly.
    await t.ctx.db.execute(`delete from memberships where user_id = '${memberUser.id}' and company_id = '${ownCompany.rows[0].company_id}'`);
    // No company left: the token stops at once.
    expect((await api('GET', '/settings/api-keys', member.tokens.access_token)).status).toBe(401);

    await t.ctx.db.execute(
      `insert into memberships (id, user_id, company_id, role, created_at) values (gen_random_uuid(), '${memberUser.id}', '${companyId}', 'MEMBER', now())`,
    );
    // The old token was issued for the ended membership: it does not come back with the new one.
    expect((await api('GET', '/settings/api-keys', member.tokens.access_token)).status).toBe(401);
    const rejoined = await dashboardTokens(memberEmail);
    const listed = await api('GET', '/settings/api-keys', rejoined.tokens.access_token);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((key: { id: string }) => key.id)).toEqual([adminKey.id]);
    const memberToken = rejoined.tokens.access_token;
    const create = await api('POST', '/settings/api-keys', memberToken, { label: 'no', scopes: ['jobs:read'] });
    expect(create.status).toBe(403);
    expect(create.body.error).toBe('FORBIDDEN');
    expect((await api('PATCH', `/settings/api-keys/${adminKey.id}`, memberToken, { label: 'no' })).status).toBe(403);
    expect((await api('DELETE', `/settings/api-keys/${adminKey.id}`, memberToken)).status).toBe(403);
  });
});

describe('third-party clients', () => {
  it('asks for consent, and the token carries only the API scopes granted; never /settings', async () => {
    const client = await createClient(t.ctx, { name: 'Partner ATS', redirectUris: ['http://localhost:9999/cb'], public: false });
    expect(client.clientSecret).toBeTruthy();
    const { tokens } = await signInAndGetTokens({
      issuer: t.issuer,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      redirectUri: 'http://localhost:9999/cb',
      scope: 'openid email jobs:read',
      email: email(),
      consent: 'approve',
    });
    expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'jobs:read', 'openid']);
    expect((await api('GET', '/public/v1/job-listings', tokens.access_token)).status).toBe(200);
    const write = await api('POST', '/public/v1/job-listings', tokens.access_token, {
      position: 'x',
      positionType: 'FULL_TIME',
      workPlaceType: 'REMOTE',
    });
    expect(write.status).toBe(403);
    expect(JSON.stringify(write.body.details)).toContain('jobs:write');
    expect((await api('GET', '/settings/api-keys', tokens.access_token)).status).toBe(403);
  });

  it('refuses a wrong client secret', async () => {
    const client = await createClient(t.ctx, { name: 'Partner', redirectUris: ['http://localhost:9999/cb'], public: false });
    await expect(
      signInAndGetTokens({
        issuer: t.issuer,
        clientId: client.clientId,
        clientSecret: 'wrong-secret',
        redirectUri: 'http://localhost:9999/cb',
        scope: 'openid',
        email: email(),
      }),
    ).rejects.toMatchObject({ status: 401, code: 'OAUTH_WWW_AUTHENTICATE_CHALLENGE' });
  });

  it('sends the user back with access_denied when they deny consent', async () => {
    const client = await createClient(t.ctx, { name: 'Partner', redirectUris: ['http://localhost:9999/cb'], public: true });
    await expect(
      signInAndGetTokens({
        issuer: t.issuer,
        clientId: client.clientId,
        redirectUri: 'http://localhost:9999/cb',
        scope: 'openid jobs:read',
        email: email(),
        consent: 'deny',
      }),
    ).rejects.toMatchObject({ error: 'access_denied' });
  });
});
