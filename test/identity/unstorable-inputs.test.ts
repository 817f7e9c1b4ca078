// Values PostgreSQL cannot store (a NUL character; a lone UTF-16 surrogate) sent to the
// authorization server or arriving in a sign-in identity: each is answered as a bad request in the
// format of where it arrived (OAuth's error for /oauth2, the sign-in pages' own), never a 500, and
// nothing is written. Over real HTTP, with a local stand-in for Google.
import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userByEmail } from '../helpers/users.ts';
import { startFakeGoogle, type FakeGoogle } from '../social/fake-google.ts';
import { freePort } from '../helpers/free-port.ts';
import { clickProvider, exchangeCode, openSignInPage, startServer, type RunningServer } from '../social/flow.ts';
import { Browser, formAction } from './browser.ts';

let server: RunningServer;
let google: FakeGoogle;

beforeAll(async () => {
  const port = await freePort();
  google = await startFakeGoogle({ redirectUris: [`http://127.0.0.1:${port}/sign-in/callback/google`] });
  server = await startServer(
    { GOOGLE_CLIENT_ID: google.clientId, GOOGLE_CLIENT_SECRET: google.clientSecret, GOOGLE_ISSUER: google.issuer },
    port,
  );
});
afterAll(async () => {
  await server?.close();
  await google?.close();
});

const callback = () => `${server.base}/dashboard/callback`;

async function post(path: string, form: Record<string, string>) {
  const response = await fetch(`${server.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
}

/** OAuth's error answer (RFC 6749 5.2): 400 with a JSON `error`. */
function expectOAuthError(answer: { status: number; type: string; body: string }, error: string) {
  expect(answer.status, answer.body).toBe(400);
  expect(answer.type).toMatch(/^application\/json/);
  expect(JSON.parse(answer.body)).toMatchObject({ error });
}

describe('/oauth2 with NUL characters', () => {
  it('/oauth2/token: a code, a refresh token or a client id with NUL is invalid_request', async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    expectOAuthError(
      await post('/oauth2/token', {
        grant_type: 'authorization_code',
        code: 'a\u0000b',
        client_id: 'dashboard',
        redirect_uri: callback(),
        code_verifier: verifier,
      }),
      'invalid_request',
    );
    expectOAuthError(await post('/oauth2/token', { grant_type: 'refresh_token', refresh_token: 'a\u0000b', client_id: 'dashboard' }), 'invalid_request');
    expectOAuthError(
      await post('/oauth2/token', { grant_type: 'authorization_code', code: 'abc', client_id: 'a\u0000b', redirect_uri: callback(), code_verifier: verifier }),
      'invalid_request',
    );
  });

  it('/oauth2/revoke: a token or a client id with NUL is invalid_request', async () => {
    expectOAuthError(await post('/oauth2/revoke', { token: 'a\u0000b', client_id: 'dashboard' }), 'invalid_request');
    expectOAuthError(await post('/oauth2/revoke', { token: 'a\u0000b', token_type_hint: 'refresh_token', client_id: 'dashboard' }), 'invalid_request');
    expectOAuthError(await post('/oauth2/revoke', { token: 'abc', client_id: 'a\u0000b' }), 'invalid_request');
  });

  it('/oauth2/authorize: client_id=a%00b is an error page; a state or nonce with NUL goes back to the client as invalid_request', async () => {
    const unknownClient = await new Browser().request(`${server.base}/oauth2/authorize?client_id=a%00b&response_type=code&scope=openid`);
    expect(unknownClient.status).toBe(400);
    expect(unknownClient.headers.get('content-type')).toMatch(/^text\/html/);
    expect(unknownClient.body).toContain('invalid_request');
    expect(unknownClient.location).toBeUndefined();

    for (const extra of [{ state: 'a\u0000b' }, { nonce: 'a\u0000b', state: 'ok' }] as Array<Record<string, string>>) {
      const url = new URL(`${server.base}/oauth2/authorize`);
      url.search = new URLSearchParams({
        client_id: 'dashboard',
        response_type: 'code',
        redirect_uri: callback(),
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
        ...extra,
      }).toString();
      const page = await new Browser().request(url.href);
      expect(page.status, page.body).toBe(303);
      const back = new URL(page.location!);
      expect(back.href.startsWith(callback())).toBe(true);
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('code')).toBeNull();
    }
  });
});

describe('sign-in identities with NUL characters', () => {
  it('the development form refuses an e-mail or a name with NUL, and writes nothing', async () => {
    const browser = new Browser();
    const url = new URL(`${server.base}/sign-in`);
    const page = await browser.follow(url.href, callback());
    expect(page.status).toBe(200);
    const action = formAction(page, '/dev');
    const email = `nul-${randomUUID().slice(0, 8)}@example.com`;
    for (const form of [{ email: `${email}\u0000x` }, { email, name: 'Nul\u0000Name' }] as Array<Record<string, string>>) {
      const answer = await browser.request(action, { form });
      expect(answer.status, answer.body).toBe(422);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: Object.keys(form).at(-1) }] });
    }
    expect(await userByEmail(server.test.ctx, email)).toBeUndefined();
    // The same form, without the NUL, signs in.
    const signedIn = await browser.follow(action, callback(), { form: { email, name: 'Nul Name' } });
    expect(signedIn.location?.startsWith(callback())).toBe(true);
  });

  it("a provider's name claim with NUL is left out; an e-mail claim with NUL is no address to sign in with", async () => {
    const email = `google-nul-${randomUUID().slice(0, 8)}@example.com`;
    google.signInAs({ sub: `google-${randomUUID()}`, email, email_verified: true, name: 'Evil\u0000Name' });
    const authorization = await openSignInPage(server.base);
    const landing = await clickProvider(server.base, authorization, 'google');
    await exchangeCode(server.base, authorization, landing);
    expect(await userByEmail(server.test.ctx, email)).toMatchObject({ email, name: null });

    google.signInAs({ sub: `google-${randomUUID()}`, email: `evil\u0000${email}`, email_verified: true, name: 'Evil' });
    const refused = await clickProvider(server.base, await openSignInPage(server.base), 'google');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(refused.body).toContain('E-mail address not verified');

    google.signInAs({ sub: 'google-\u0000-subject', email: `other-${email}`, email_verified: true });
    const noSubject = await clickProvider(server.base, await openSignInPage(server.base), 'google');
    // An answer from the provider we cannot use: the provider's fault (502), said on a page.
    expect(noSubject.status).toBe(502);
    expect(noSubject.headers.get('content-type')).toMatch(/^text\/html/);
    expect(noSubject.body).toContain('gave an answer we cannot use');
    expect(await userByEmail(server.test.ctx, `other-${email}`)).toBeUndefined();
  });
});
