// Social sign-in end to end over real HTTP: our /oauth2/authorize, our sign-in page, a local
// OpenID provider standing in for Google (oidc-provider on loopback) or a local stand-in for
// Facebook, our callback, and tokens from our /oauth2/token used on /settings.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { getMembership } from '../../src/modules/users/service.ts';
import { userByEmail } from '../helpers/users.ts';
import { startFakeFacebook, type FakeFacebook } from './fake-facebook.ts';
import { startFakeGoogle, type FakeGoogle } from './fake-google.ts';
import { freePort } from '../helpers/free-port.ts';
import { bearer, clickProvider, exchangeCode, openSignInPage, providerButton, signInWith, startServer, type RunningServer } from './flow.ts';
import { Browser } from '../helpers/browser.ts';

let server: RunningServer;
let google: FakeGoogle;
let linkedin: FakeGoogle;
let facebook: FakeFacebook;

beforeAll(async () => {
  // The stand-in for Google needs our callback URL (registered there) before we start.
  const port = await freePort();
  google = await startFakeGoogle({ redirectUris: [`http://127.0.0.1:${port}/sign-in/callback/google`] });
  // LinkedIn as its defaults are: no PKCE for the app, no nonce echoed (none is asked).
  linkedin = await startFakeGoogle({ redirectUris: [`http://127.0.0.1:${port}/sign-in/callback/linkedin`], pkceRequired: false });
  facebook = await startFakeFacebook();
  server = await startServer(
    {
      GOOGLE_CLIENT_ID: google.clientId,
      GOOGLE_CLIENT_SECRET: google.clientSecret,
      GOOGLE_ISSUER: google.issuer,
      LINKEDIN_CLIENT_ID: linkedin.clientId,
      LINKEDIN_CLIENT_SECRET: linkedin.clientSecret,
      LINKEDIN_ISSUER: linkedin.issuer,
      FACEBOOK_CLIENT_ID: facebook.clientId,
      FACEBOOK_CLIENT_SECRET: facebook.clientSecret,
      FACEBOOK_AUTHORIZE_URL: facebook.authorizeUrl,
      FACEBOOK_TOKEN_URL: facebook.tokenUrl,
      FACEBOOK_GRAPH_URL: facebook.graphUrl,
    },
    port,
  );
});

afterAll(async () => {
  await server?.close();
  await google?.close();
  await linkedin?.close();
  await facebook?.close();
});

const db = () => server.test.ctx.db;

async function externalIdentities(provider: string, subject: string) {
  return queryRows<{ user_id: string; email: string }>(
    db(),
    sql`select user_id, email from external_identities where provider = ${provider} and subject = ${subject}`,
  );
}

describe('Google (a local OpenID provider standing in for it)', () => {
  it('first sign-in creates the user and a company with them as ADMIN; tokens come from our /oauth2/token', async () => {
    google.signInAs({ sub: 'google-ada', email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace' });
    const tokens = await signInWith(server.base, 'google');

    const user = await userByEmail(server.test.ctx, 'ada@example.com');
    expect(user).toMatchObject({ email: 'ada@example.com', name: 'Ada Lovelace' });
    const membership = await getMembership(server.test.ctx, user!.id);
    expect(membership).toMatchObject({ role: 'ADMIN' });
    expect(await externalIdentities('google', 'google-ada')).toEqual([{ user_id: user!.id, email: 'ada@example.com' }]);

    // The upstream flow carried PKCE and a nonce (the stand-in refuses an authorization without PKCE).
    expect(google.authorizations.at(-1)).toMatchObject({ code_challenge_method: 'S256', nonce: expect.any(String) });

    const members = await fetch(`${server.base}/settings/members`, { headers: bearer(tokens) });
    expect(members.status).toBe(200);
    expect(((await members.json()) as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ userId: user!.id, email: 'ada@example.com', role: 'ADMIN' }),
    ]);
  });

  it('a second sign-in reuses the user and company, even when the provider now shows another address', async () => {
    const before = await userByEmail(server.test.ctx, 'ada@example.com');
    const companyBefore = (await getMembership(server.test.ctx, before!.id))!.companyId;
    google.signInAs({ sub: 'google-ada', email: 'ada.new@example.com', email_verified: true, name: 'Ada K. Lovelace' });
    const tokens = await signInWith(server.base, 'google');

    const after = await userByEmail(server.test.ctx, 'ada@example.com');
    expect(after!.id).toBe(before!.id);
    expect(after!.name).toBe('Ada K. Lovelace');
    expect(await userByEmail(server.test.ctx, 'ada.new@example.com')).toBeUndefined();
    expect((await getMembership(server.test.ctx, after!.id))!.companyId).toBe(companyBefore);
    const [{ count }] = await queryRows<{ count: number }>(db(), sql`select count(*)::int as count from memberships where user_id = ${after!.id}`);
    expect(count).toBe(1);
    const members = await fetch(`${server.base}/settings/members`, { headers: bearer(tokens) });
    expect(((await members.json()) as { data: { userId: string }[] }).data.map((m) => m.userId)).toEqual([before!.id]);
  });

  it('an invited person joins the inviting company with the invited role instead of getting their own', async () => {
    google.signInAs({ sub: 'google-owner', email: 'owner@acme.example', email_verified: true, name: 'Owner' });
    const owner = await signInWith(server.base, 'google');
    const ownerUser = await userByEmail(server.test.ctx, 'owner@acme.example');
    const companyId = (await getMembership(server.test.ctx, ownerUser!.id))!.companyId;

    const invite = await fetch(`${server.base}/settings/members/invitations`, {
      method: 'POST',
      headers: { ...bearer(owner), 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'Grace@Acme.example', role: 'MEMBER' }),
    });
    expect(invite.status).toBe(201);
    expect(await invite.json()).toMatchObject({ email: 'grace@acme.example', role: 'MEMBER', invitedBy: ownerUser!.id });

    google.signInAs({ sub: 'google-grace', email: 'grace@acme.example', email_verified: true, name: 'Grace' });
    const grace = await signInWith(server.base, 'google');
    const graceUser = await userByEmail(server.test.ctx, 'grace@acme.example');
    expect(await getMembership(server.test.ctx, graceUser!.id)).toMatchObject({ companyId, role: 'MEMBER' });
    const [{ count }] = await queryRows<{ count: number }>(db(), sql`select count(*)::int as count from companies`);

    // Grace sees the company's members; the invitation is no longer open; she may not invite.
    const members = await fetch(`${server.base}/settings/members`, { headers: bearer(grace) });
    expect(((await members.json()) as { data: { email: string; role: string }[] }).data).toEqual([
      expect.objectContaining({ email: 'grace@acme.example', role: 'MEMBER' }),
      expect.objectContaining({ email: 'owner@acme.example', role: 'ADMIN' }),
    ]);
    const open = await fetch(`${server.base}/settings/members/invitations`, { headers: bearer(grace) });
    expect(((await open.json()) as { data: unknown[] }).data).toEqual([]);
    const forbidden = await fetch(`${server.base}/settings/members/invitations`, {
      method: 'POST',
      headers: { ...bearer(grace), 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x@acme.example', role: 'MEMBER' }),
    });
    expect(forbidden.status).toBe(403);

    // No company was made for Grace.
    const [{ count: countAfter }] = await queryRows<{ count: number }>(db(), sql`select count(*)::int as count from companies`);
    expect(countAfter).toBe(count);

    // Removed, her token stops working on the very next request.
    const removed = await fetch(`${server.base}/settings/members/${graceUser!.id}`, { method: 'DELETE', headers: bearer(owner) });
    expect(removed.status).toBe(204);
    const after = await fetch(`${server.base}/settings/members`, { headers: bearer(grace) });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('never links or creates an account on an unverified e-mail: a page says why, nothing is written', async () => {
    google.signInAs({ sub: 'google-mallory', email: 'ada@example.com', email_verified: false, name: 'Mallory' });
    const authorization = await openSignInPage(server.base);
    const page = await clickProvider(server.base, authorization, 'google');
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.body).toContain('E-mail address not verified');
    expect(await externalIdentities('google', 'google-mallory')).toEqual([]);
    expect((await userByEmail(server.test.ctx, 'ada@example.com'))!.name).not.toBe('Mallory');

    google.signInAs({ sub: 'google-nobody', email: 'nobody@example.com', email_verified: false });
    const second = await clickProvider(server.base, await openSignInPage(server.base), 'google');
    expect(second.status).toBe(403);
    expect(await userByEmail(server.test.ctx, 'nobody@example.com')).toBeUndefined();
  });

  it('refuses an ID token signed with a key the provider does not publish: nobody is signed in, created or linked', async () => {
    google.signInAs({ sub: 'google-forged', email: 'forged@example.com', email_verified: true });
    google.forgeIdTokens(true);
    try {
      const page = await clickProvider(server.base, await openSignInPage(server.base), 'google');
      expect(page.status).toBe(502);
      expect(page.body).toContain('Sign-in provider unavailable');
    } finally {
      google.forgeIdTokens(false);
    }
    expect(await userByEmail(server.test.ctx, 'forged@example.com')).toBeUndefined();
    expect(await externalIdentities('google', 'google-forged')).toEqual([]);
  });

  it('refuses a callback not started in this browser, or replayed', async () => {
    google.signInAs({ sub: 'google-eve', email: 'eve@example.com', email_verified: true });
    const authorization = await openSignInPage(server.base);
    const href = providerButton(authorization.signInPage, 'google')!;
    // Follow only up to our callback, and hand that URL to another browser.
    const upToCallback = await authorization.browser.follow(new URL(href, server.base).href, {}, {
      stopAt: (location) => location.pathname === '/sign-in/callback/google',
    });
    const stranger = await new Browser().follow(upToCallback.url);
    expect(stranger.status).toBe(400);
    expect(stranger.body).toContain('Sign-in expired');
    expect(await userByEmail(server.test.ctx, 'eve@example.com')).toBeUndefined();

    // The rightful browser still finishes; replaying the same callback afterwards is refused.
    const landing = await authorization.browser.follow(upToCallback.url, {}, {
      stopAt: (location) => location.href.startsWith(`${server.base}/dashboard/callback`),
    });
    await exchangeCode(server.base, authorization, landing);
    const replay = await authorization.browser.follow(upToCallback.url);
    expect(replay.status).toBe(400);
  });
});

describe('LinkedIn with its defaults (a local OpenID provider standing in for it: no PKCE, no nonce)', () => {
  it('signs nobody in: a victim\'s leaked code used with the attacker\'s own attempt reaches no account', async () => {
    // The victim has an account (made with Google) and a LinkedIn account with the same address.
    google.signInAs({ sub: 'google-victim', email: 'victim@example.com', email_verified: true });
    await signInWith(server.base, 'google');
    const victim = await userByEmail(server.test.ctx, 'victim@example.com');

    // A code LinkedIn issued for the victim, for our client and redirect URI, never redeemed (leaked).
    linkedin.signInAs({ sub: 'li-victim', email: 'victim@example.com', email_verified: true });
    const discovery = (await (await fetch(`${linkedin.issuer}/.well-known/openid-configuration`)).json()) as { authorization_endpoint: string };
    const authorize = new URL(discovery.authorization_endpoint);
    authorize.search = new URLSearchParams({
      client_id: linkedin.clientId,
      redirect_uri: `${server.base}/sign-in/callback/linkedin`,
      response_type: 'code',
      scope: 'openid email profile',
      state: 'the-victims-state',
    }).toString();
    const leaked = new URL((await new Browser().follow(authorize.href, {}, { stopAt: (location) => location.pathname === '/sign-in/callback/linkedin' })).url);
    expect(leaked.searchParams.get('code')).toBeTruthy();

    // The attacker opens a sign-in of their own: no LinkedIn button, and its route refuses to start.
    const attacker = await openSignInPage(server.base);
    expect(providerButton(attacker.signInPage, 'linkedin')).toBeUndefined();
    const uid = new URL(attacker.signInPage.url).pathname.split('/')[2];
    const start = await attacker.browser.request(`${server.base}/sign-in/${uid}/linkedin`);
    const attackerState = new URL(start.headers.get('location') ?? 'http://none/').searchParams.get('state') ?? 'no-state';
    await start.body?.cancel();
    expect(start.status).toBe(403);

    // ... and the leaked code, sent with the attacker's state, signs nobody in.
    const injected = new URL(leaked);
    injected.searchParams.set('state', attackerState);
    const landing = await attacker.browser.follow(injected.href, {}, { stopAt: (location) => location.href.startsWith(`${server.base}/dashboard/callback`) });
    expect(landing.url.startsWith(`${server.base}/dashboard/callback`)).toBe(false);
    expect(landing.status).toBe(403);
    expect(landing.body).toContain('Sign-in method unavailable');
    expect(await externalIdentities('linkedin', 'li-victim')).toEqual([]);
    expect((await userByEmail(server.test.ctx, 'victim@example.com'))!.id).toBe(victim!.id);
  });
});

describe('Facebook (a local stand-in for its dialog, token and Graph me endpoints)', () => {
  it('signs in with the Graph me answer: user and company created, tokens from our /oauth2/token', async () => {
    facebook.signInAs({ id: '100200300', name: 'Alan Turing', email: 'alan@example.com', pictureUrl: 'https://fb.example/alan.jpg' });
    const tokens = await signInWith(server.base, 'facebook');
    const user = await userByEmail(server.test.ctx, 'alan@example.com');
    expect(user).toMatchObject({ name: 'Alan Turing', picture: 'https://fb.example/alan.jpg' });
    expect(await getMembership(server.test.ctx, user!.id)).toMatchObject({ role: 'ADMIN' });
    expect(await externalIdentities('facebook', '100200300')).toEqual([{ user_id: user!.id, email: 'alan@example.com' }]);
    expect(facebook.dialogs.at(-1)).toMatchObject({ code_challenge_method: 'S256', redirect_uri: `${server.base}/sign-in/callback/facebook` });
    expect(facebook.meCalls.at(-1)).toEqual({ fields: 'id,name,email,picture', proofValid: true });
    expect((await fetch(`${server.base}/settings/members`, { headers: bearer(tokens) })).status).toBe(200);
  });

  it('links a Facebook account to the existing user with the same (confirmed) address', async () => {
    facebook.signInAs({ id: '100200301', name: 'Ada on Facebook', email: 'ada@example.com' });
    await signInWith(server.base, 'facebook');
    const ada = await userByEmail(server.test.ctx, 'ada@example.com');
    expect(await externalIdentities('facebook', '100200301')).toEqual([{ user_id: ada!.id, email: 'ada@example.com' }]);
  });

  it('refuses a Facebook account without a confirmed e-mail', async () => {
    facebook.signInAs({ id: '100200302', name: 'No Mail' });
    const page = await clickProvider(server.base, await openSignInPage(server.base), 'facebook');
    expect(page.status).toBe(403);
    expect(page.body).toContain('E-mail address not verified');
    expect(await externalIdentities('facebook', '100200302')).toEqual([]);
  });
});

describe('a provider without client id and secret is off', () => {
  it('has no button, and its start and callback routes answer 404', async () => {
    const bare = await startServer();
    try {
      const authorization = await openSignInPage(bare.base);
      expect(providerButton(authorization.signInPage, 'google')).toBeUndefined();
      expect(providerButton(authorization.signInPage, 'facebook')).toBeUndefined();
      expect(providerButton(authorization.signInPage, 'linkedin')).toBeUndefined();
      const uid = new URL(authorization.signInPage.url).pathname.split('/')[2];
      const start = await authorization.browser.request(`${bare.base}/sign-in/${uid}/google`);
      expect(start.status).toBe(404);
      expect(((await start.json()) as { error: string }).error).toBe('NOT_FOUND');
      const callback = await authorization.browser.request(`${bare.base}/sign-in/callback/google?code=x&state=y`);
      expect(callback.status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
