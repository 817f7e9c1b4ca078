// The connectors alone against the local stand-ins: the upstream half of social sign-in (PKCE,
// state, nonce, code redemption, ID token, Graph `me`), without our server in between.
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { buildSocialConnectors, UpstreamDeniedError, type UpstreamChecks } from '../../src/modules/social/connectors.ts';
import { Browser } from '../helpers/browser.ts';
import { startFakeFacebook, type FakeFacebook } from './fake-facebook.ts';
import { startFakeGoogle, type FakeGoogle } from './fake-google.ts';

const REDIRECT = 'http://127.0.0.1:9/signin/callback/google';
const FB_REDIRECT = 'http://127.0.0.1:9/signin/callback/facebook';

function freshChecks(redirectUri: string): UpstreamChecks {
  return { redirectUri, state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
}

/** The error's message and its causes', which is where openid-client says what failed. */
async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const messages: string[] = [];
    for (let e: unknown = error; e instanceof Error; e = e.cause) messages.push(e.message);
    return messages.join(' / ');
  }
  throw new Error('expected a failure');
}

/** Runs the browser part upstream and returns the URL the provider sent it back to. */
async function upstreamRedirect(start: URL, redirectUri: string): Promise<URL> {
  const result = await new Browser().follow(start.href, {}, { stopAt: (location) => location.href.startsWith(redirectUri) });
  return new URL(result.url);
}

describe('Google connector (OpenID Connect by discovery)', () => {
  let google: FakeGoogle;
  beforeAll(async () => {
    google = await startFakeGoogle({ redirectUris: [REDIRECT] });
  });
  afterAll(() => google.close());

  const connectorFor = () =>
    buildSocialConnectors(
      loadConfig({ GOOGLE_CLIENT_ID: google.clientId, GOOGLE_CLIENT_SECRET: google.clientSecret, GOOGLE_ISSUER: google.issuer }).social,
    ).get('google')!;

  it('sends PKCE, state and nonce, and reads the verified profile from the ID token', async () => {
    const connector = connectorFor();
    const checks = freshChecks(REDIRECT);
    google.signInAs({ sub: 'g-1', email: 'Ada@Example.com', email_verified: true, name: 'Ada', picture: 'https://p.example/a.png' });
    const back = await upstreamRedirect(await connector.authorizationUrl(checks), REDIRECT);
    const sent = google.authorizations.at(-1)!;
    expect(sent).toMatchObject({ state: checks.state, nonce: checks.nonce, code_challenge_method: 'S256' });
    expect(sent.code_challenge).toBe(await oidc.calculatePKCECodeChallenge(checks.codeVerifier));

    const profile = await connector.complete(back, checks);
    expect(profile).toEqual({
      provider: 'google',
      subject: 'g-1',
      email: 'ada@example.com',
      emailVerified: true,
      name: 'Ada',
      picture: 'https://p.example/a.png',
    });
  });

  it('refuses a callback whose state is not the one sent', async () => {
    const connector = connectorFor();
    const checks = freshChecks(REDIRECT);
    google.signInAs({ sub: 'g-2', email: 'b@example.com', email_verified: true });
    const back = await upstreamRedirect(await connector.authorizationUrl(checks), REDIRECT);
    expect(await failure(connector.complete(back, { ...checks, state: oidc.randomState() }))).toMatch(/"state"/);
  });

  it('refuses an ID token whose nonce is not the one sent', async () => {
    const connector = connectorFor();
    const checks = freshChecks(REDIRECT);
    google.signInAs({ sub: 'g-3', email: 'c@example.com', email_verified: true });
    const back = await upstreamRedirect(await connector.authorizationUrl(checks), REDIRECT);
    expect(await failure(connector.complete(back, { ...checks, nonce: oidc.randomNonce() }))).toMatch(/"nonce"/);
  });

  it('refuses an ID token signed with a key that is not in the provider\'s JWKS', async () => {
    const connector = connectorFor();
    const checks = freshChecks(REDIRECT);
    google.signInAs({ sub: 'g-forged', email: 'forged@example.com', email_verified: true });
    const back = await upstreamRedirect(await connector.authorizationUrl(checks), REDIRECT);
    google.forgeIdTokens(true);
    try {
      expect(await failure(connector.complete(back, checks))).toMatch(/signature/i);
    } finally {
      google.forgeIdTokens(false);
    }
  });

  it('refuses a code redeemed with another PKCE verifier', async () => {
    const connector = connectorFor();
    const checks = freshChecks(REDIRECT);
    google.signInAs({ sub: 'g-4', email: 'd@example.com', email_verified: true });
    const back = await upstreamRedirect(await connector.authorizationUrl(checks), REDIRECT);
    await expect(connector.complete(back, { ...checks, codeVerifier: oidc.randomPKCECodeVerifier() })).rejects.toThrow();
  });

  it('reports an error answer (the person cancelled) as UpstreamDeniedError', async () => {
    const checks = freshChecks(REDIRECT);
    const back = new URL(`${REDIRECT}?error=access_denied&state=${checks.state}&iss=${encodeURIComponent(google.issuer)}`);
    await expect(connectorFor().complete(back, checks)).rejects.toBeInstanceOf(UpstreamDeniedError);
  });

  it('reports an unverified e-mail as such', async () => {
    const connector = connectorFor();
    const checks = freshChecks(REDIRECT);
    google.signInAs({ sub: 'g-5', email: 'e@example.com', email_verified: false });
    const back = await upstreamRedirect(await connector.authorizationUrl(checks), REDIRECT);
    expect(await connector.complete(back, checks)).toMatchObject({ email: 'e@example.com', emailVerified: false });
  });

  it('fails (and later retries) discovery when the issuer does not answer, within the timeout', async () => {
    const connector = buildSocialConnectors(
      loadConfig({ GOOGLE_CLIENT_ID: 'x', GOOGLE_CLIENT_SECRET: 'y', GOOGLE_ISSUER: 'http://127.0.0.1:9', SOCIAL_TIMEOUT_SECONDS: '2' }).social,
    ).get('google')!;
    await expect(connector.authorizationUrl(freshChecks(REDIRECT))).rejects.toThrow();
    await expect(connector.authorizationUrl(freshChecks(REDIRECT))).rejects.toThrow();
  });
});

describe('LinkedIn connector (OpenID Connect by discovery, without nonce; PKCE only when enabled)', () => {
  const LINKEDIN_REDIRECT = 'http://127.0.0.1:9/signin/callback/linkedin';
  let linkedin: FakeGoogle;
  beforeAll(async () => {
    linkedin = await startFakeGoogle({ redirectUris: [LINKEDIN_REDIRECT], pkceRequired: false });
  });
  afterAll(() => linkedin.close());

  const connectorFor = (env: Record<string, string> = {}) =>
    buildSocialConnectors(
      loadConfig({ LINKEDIN_CLIENT_ID: linkedin.clientId, LINKEDIN_CLIENT_SECRET: linkedin.clientSecret, LINKEDIN_ISSUER: linkedin.issuer, ...env })
        .social,
    ).get('linkedin')!;

  it('sends no nonce and no PKCE by default, and takes email_verified sent as the string "true"', async () => {
    const connector = connectorFor();
    const checks = freshChecks(LINKEDIN_REDIRECT);
    linkedin.signInAs({ sub: 'li-1', email: 'grace@example.com', email_verified: 'true', name: 'Grace Hopper' });
    const back = await upstreamRedirect(await connector.authorizationUrl(checks), LINKEDIN_REDIRECT);
    const sent = linkedin.authorizations.at(-1)!;
    expect(sent.state).toBe(checks.state);
    expect(sent).not.toHaveProperty('nonce');
    expect(sent).not.toHaveProperty('code_challenge');
    expect(await connector.complete(back, checks)).toMatchObject({ provider: 'linkedin', subject: 'li-1', email: 'grace@example.com', emailVerified: true });
  });

  it('binds nothing by default (LinkedIn echoes no nonce): such a connector signs nobody in', () => {
    expect(connectorFor()).toMatchObject({ usesNonce: false, usesPkce: false, bindsCode: false });
    expect(connectorFor({ LINKEDIN_PKCE: 'true' })).toMatchObject({ usesPkce: true, bindsCode: true });
  });

  it('with PKCE, a victim\'s leaked code redeemed with the attacker\'s own state and verifier is refused', async () => {
    const connector = connectorFor({ LINKEDIN_PKCE: 'true' });
    const victim = freshChecks(LINKEDIN_REDIRECT);
    linkedin.signInAs({ sub: 'li-victim', email: 'victim@example.com', email_verified: true });
    const leaked = await upstreamRedirect(await connector.authorizationUrl(victim), LINKEDIN_REDIRECT);
    const attacker = freshChecks(LINKEDIN_REDIRECT);
    const injected = new URL(leaked);
    injected.searchParams.set('state', attacker.state);
    await expect(connector.complete(injected, attacker)).rejects.toThrow();
  });

  it('sends PKCE with LINKEDIN_PKCE=true', async () => {
    const connector = connectorFor({ LINKEDIN_PKCE: 'true' });
    const checks = freshChecks(LINKEDIN_REDIRECT);
    linkedin.signInAs({ sub: 'li-2', email: 'h@example.com', email_verified: true });
    const back = await upstreamRedirect(await connector.authorizationUrl(checks), LINKEDIN_REDIRECT);
    expect(linkedin.authorizations.at(-1)!.code_challenge).toBe(await oidc.calculatePKCECodeChallenge(checks.codeVerifier));
    expect(await connector.complete(back, checks)).toMatchObject({ subject: 'li-2', emailVerified: true });
  });
});

describe('Facebook connector (OAuth 2 and the Graph me call)', () => {
  let facebook: FakeFacebook;
  beforeAll(async () => {
    facebook = await startFakeFacebook();
  });
  afterAll(() => facebook.close());

  const connectorFor = (env: Record<string, string> = {}) =>
    buildSocialConnectors(
      loadConfig({
        ...env,
        FACEBOOK_CLIENT_ID: facebook.clientId,
        FACEBOOK_CLIENT_SECRET: facebook.clientSecret,
        FACEBOOK_AUTHORIZE_URL: facebook.authorizeUrl,
        FACEBOOK_TOKEN_URL: facebook.tokenUrl,
        FACEBOOK_GRAPH_URL: facebook.graphUrl,
      }).social,
    ).get('facebook')!;

  it('redeems the code with PKCE and reads id, name, email and picture with appsecret_proof', async () => {
    const connector = connectorFor();
    const checks = freshChecks(FB_REDIRECT);
    facebook.signInAs({ id: '10001', name: 'Alan', email: 'alan@example.com', pictureUrl: 'https://fb.example/a.jpg' });
    const back = await upstreamRedirect(await connector.authorizationUrl(checks), FB_REDIRECT);
    expect(facebook.dialogs.at(-1)).toMatchObject({ state: checks.state, code_challenge_method: 'S256', scope: 'email public_profile' });

    const profile = await connector.complete(back, checks);
    expect(profile).toEqual({
      provider: 'facebook',
      subject: '10001',
      email: 'alan@example.com',
      emailVerified: true,
      name: 'Alan',
      picture: 'https://fb.example/a.jpg',
    });
    expect(facebook.meCalls.at(-1)).toEqual({ fields: 'id,name,email,picture', proofValid: true });
  });

  it('sends no PKCE with FACEBOOK_PKCE=false', async () => {
    const connector = connectorFor({ FACEBOOK_PKCE: 'false' });
    const checks = freshChecks(FB_REDIRECT);
    facebook.signInAs({ id: '10009', email: 'nopkce@example.com' });
    const back = await upstreamRedirect(await connector.authorizationUrl(checks), FB_REDIRECT);
    expect(facebook.dialogs.at(-1)).not.toHaveProperty('code_challenge');
    expect(await connector.complete(back, checks)).toMatchObject({ subject: '10009', emailVerified: true });
  });

  it('has no verified e-mail when Facebook gives none', async () => {
    const connector = connectorFor();
    const checks = freshChecks(FB_REDIRECT);
    facebook.signInAs({ id: '10002', name: 'No Mail' });
    const back = await upstreamRedirect(await connector.authorizationUrl(checks), FB_REDIRECT);
    expect(await connector.complete(back, checks)).toMatchObject({ email: undefined, emailVerified: false });
  });

  it('refuses a callback whose state is not the one sent', async () => {
    const connector = connectorFor();
    const checks = freshChecks(FB_REDIRECT);
    facebook.signInAs({ id: '10003', email: 'x@example.com' });
    const back = await upstreamRedirect(await connector.authorizationUrl(checks), FB_REDIRECT);
    expect(await failure(connector.complete(back, { ...checks, state: oidc.randomState() }))).toMatch(/"state"/);
  });
});

describe('which providers are on', () => {
  it('builds a connector only for providers with both a client id and a secret', () => {
    expect([...buildSocialConnectors(loadConfig({}).social).keys()]).toEqual([]);
    const all = loadConfig({
      GOOGLE_CLIENT_ID: 'a',
      GOOGLE_CLIENT_SECRET: 'b',
      LINKEDIN_CLIENT_ID: 'c',
      LINKEDIN_CLIENT_SECRET: 'd',
      FACEBOOK_CLIENT_ID: 'e',
      FACEBOOK_CLIENT_SECRET: 'f',
    }).social;
    const connectors = buildSocialConnectors(all);
    expect([...connectors.keys()]).toEqual(['google', 'linkedin', 'facebook']);
    // LinkedIn: no nonce (it does not echo one) and no PKCE unless enabled for the app: unbound.
    expect(connectors.get('linkedin')).toMatchObject({ usesNonce: false, usesPkce: false, bindsCode: false });
    expect(connectors.get('google')).toMatchObject({ usesNonce: true, usesPkce: true, bindsCode: true });
    expect(connectors.get('facebook')).toMatchObject({ usesPkce: true, bindsCode: true });
  });
});
