// Every URL the server publishes comes from BASE_URL, never from the request: a forged Host or
// X-Forwarded-Host (from anyone, or through a proxy named in TRUST_PROXY, which is believed only
// for X-Forwarded-For and X-Forwarded-Proto) cannot put another origin into the discovery document,
// the JWKS address, the sign-in redirects or the sign-out form, so a shared cache cannot be poisoned.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

const BASE_URL = 'https://recruiting.example.com';
const ISSUER = `${BASE_URL}/oauth2`;
const FORGED = { host: 'attacker.example', 'x-forwarded-host': 'attacker.example', forwarded: 'host=attacker.example;proto=http' };

/** Every string in a JSON value that looks like a URL. */
function urlsIn(value: unknown): string[] {
  if (typeof value === 'string') return /^[a-z]+:\/\//i.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(urlsIn);
  return [];
}

/** Cookies answered by `set-cookie`, as a Cookie header (enough for one flow through inject). */
function cookiesOf(headers: Record<string, unknown>, jar: Map<string, string>): string {
  const lines = [headers['set-cookie'] ?? []].flat() as string[];
  for (const line of lines) {
    const [pair] = line.split(';');
    const index = pair!.indexOf('=');
    jar.set(pair!.slice(0, index), pair!.slice(index + 1));
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

const setups: Array<{ name: string; env: Record<string, string>; headers: Record<string, string> }> = [
  { name: 'served directly (no TRUST_PROXY)', env: {}, headers: FORGED },
  // inject() comes from 127.0.0.1: here that is the trusted proxy, which says the scheme is https.
  { name: 'behind a proxy named in TRUST_PROXY', env: { TRUST_PROXY: '127.0.0.1' }, headers: { ...FORGED, 'x-forwarded-proto': 'https' } },
];

for (const setup of setups) {
  describe(`published URLs, ${setup.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ BASE_URL, ...setup.env });
    });
    afterAll(async () => t?.close());

    it('the discovery document names BASE_URL only, and may be cached', async () => {
      const res = await t.app.inject({ url: '/oauth2/.well-known/openid-configuration', headers: setup.headers });
      expect(res.statusCode).toBe(200);
      const document = res.json() as Record<string, unknown>;
      expect(document.issuer).toBe(ISSUER);
      expect(document.jwks_uri).toBe(`${ISSUER}/jwks`);
      expect(document.authorization_endpoint).toBe(`${ISSUER}/authorize`);
      expect(document.token_endpoint).toBe(`${ISSUER}/token`);
      const urls = urlsIn(document);
      expect(urls.length).toBeGreaterThanOrEqual(6);
      for (const url of urls) expect(url.startsWith(`${ISSUER}/`) || url === ISSUER, url).toBe(true);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      // The same for an honest request: nothing in it depends on who asked.
      expect((await t.app.inject({ url: '/oauth2/.well-known/openid-configuration' })).body).toBe(res.body);
    });

    it('the OpenAPI document names BASE_URL as its server', async () => {
      const res = await t.app.inject({ url: '/openapi.json', headers: setup.headers });
      expect((res.json() as { servers: Array<{ url: string }> }).servers.map((server) => server.url)).toEqual([BASE_URL]);
    });

    it('the sign-in redirects and the sign-out form lead to BASE_URL', async () => {
      const jar = new Map<string, string>();
      const authorize = await t.app.inject({
        url: `/oauth2/authorize?${new URLSearchParams({
          client_id: 'dashboard',
          response_type: 'code',
          redirect_uri: `${BASE_URL}/dashboard/callback`,
          scope: 'openid',
          state: 'state-1',
          code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
          code_challenge_method: 'S256',
        })}`,
        headers: setup.headers,
      });
      expect(authorize.statusCode, authorize.body).toBe(303);
      const signInPath = authorize.headers.location as string;
      // Our own pages are addressed by path: same origin as whatever the browser is on.
      expect(signInPath).toMatch(/^\/sign-in\/[\w-]+$/);
      const page = await t.app.inject({ url: signInPath, headers: { ...setup.headers, cookie: cookiesOf(authorize.headers, jar) } });
      expect(page.statusCode).toBe(200);
      for (const [, action] of page.body.matchAll(/<form[^>]*action="([^"]+)"/g)) expect(action).toMatch(/^\/sign-in\//);

      const signedIn = await t.app.inject({
        method: 'POST',
        url: `${signInPath}/dev`,
        headers: { ...setup.headers, cookie: cookiesOf(page.headers, jar), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ email: `urls-${randomUUID().slice(0, 8)}@example.com` }).toString(),
      });
      expect(signedIn.statusCode, signedIn.body).toBe(303);
      const resume = signedIn.headers.location as string;
      expect(resume.startsWith(`${ISSUER}/`), resume).toBe(true);
      const back = await t.app.inject({
        url: new URL(resume).pathname,
        headers: { ...setup.headers, cookie: cookiesOf(signedIn.headers, jar) },
      });
      expect(back.statusCode, back.body).toBe(303);
      expect(back.headers.location as string).toMatch(new RegExp(`^${BASE_URL}/dashboard/callback\\?code=`));

      const logout = await t.app.inject({ url: '/oauth2/logout', headers: { ...setup.headers, cookie: cookiesOf(back.headers, jar) } });
      expect(logout.statusCode).toBe(200);
      const actions = [...logout.body.matchAll(/<form[^>]*action="([^"]+)"/g)].map((match) => match[1]!);
      expect(actions.length).toBeGreaterThan(0);
      for (const action of actions) expect(action.startsWith(`${ISSUER}/`), action).toBe(true);
    });
  });
}
