// Credentials in URLs. The API refuses a key or token in the query string (400 naming the header to
// use) before looking it up; and whatever URL reaches the server, its credential-looking
// parameters (api_key, access_token, id_token_hint, code, state, client_secret, refresh_token...)
// are redacted from every log line: the access line and Fastify's own request lines.
import { LogController } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppInstance } from '../../src/http/app-instance.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let tenant: Tenant;
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzZWNyZXQtc3ViamVjdCJ9.c2lnbmF0dXJlLXNlY3JldA';

/** Fastify's own request log line ("incoming request", with its `req` serializer) on one test route. */
function fastifyRequestLine(app: AppInstance) {
  const fastifyLog = new LogController({ disableRequestLogging: false });
  app.get('/test-fastify-request-log', (request, reply) => {
    fastifyLog.incomingRequest(request, reply);
    return reply.send({ ok: true });
  });
}

beforeAll(async () => {
  t = await buildTestApp({}, { captureLogs: true, configure: fastifyRequestLine });
  tenant = await t.tenant();
});
afterAll(() => t.close());

const logText = () => JSON.stringify(t.logs());

describe('the API refuses credentials in the query string', () => {
  it.each(['api_key', 'apiKey', 'x-api-key', 'key', 'access_token', 'token'])('?%s=... : 400 naming the header, the key never logged', async (name) => {
    const url = `/public/v1/job-listings?${name}=${encodeURIComponent(tenant.apiKey)}`;
    const res = await t.app.inject({ url });
    const body = expectErrorEnvelope(res, 400, 'BAD_REQUEST', '/public/v1/job-listings');
    expect(body.message).toContain('X-API-Key');
    expect(body.details).toEqual([{ field: name, message: expect.stringContaining('X-API-Key') }]);
    expect(res.body).not.toContain(tenant.apiKey);
    expect(logText()).not.toContain(tenant.apiKey);
  });

  it('also alongside a valid header, and on the settings (naming Authorization there)', async () => {
    const withHeader = await t.app.inject({ url: `/public/v1/job-listings?size=1&api_key=${tenant.apiKey}`, headers: tenant.headers });
    expectErrorEnvelope(withHeader, 400, 'BAD_REQUEST', '/public/v1/job-listings');
    const settings = await t.app.inject({ url: `/settings/members?access_token=${TOKEN}` });
    const body = expectErrorEnvelope(settings, 400, 'BAD_REQUEST', '/settings/members');
    expect(body.message).toContain('Authorization');
    expect(logText()).not.toContain(tenant.apiKey);
    expect(logText()).not.toContain(TOKEN);
  });

  it('leaves the ordinary query parameters alone', async () => {
    const res = await t.app.inject({ url: '/public/v1/job-listings?size=1&status=ACTIVE', headers: tenant.headers });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('logged URLs never carry credentials', () => {
  const SECRETS = {
    code: 'authorization-code-4f1c2e',
    state: 'state-value-9a8b7c',
    id_token_hint: TOKEN,
    client_secret: 'client-secret-value-77aa',
    refresh_token: 'refresh-token-value-88bb',
    access_token: 'access-token-value-99cc',
    api_key: 'rk_live_abcdefghijklmnopqrstuvwxyz012345',
  };
  const query = new URLSearchParams({ ...SECRETS, size: '1' }).toString();

  it('the access line of any route: OAuth logout, social callback, health, an unknown path', async () => {
    const urls = [
      `/oauth2/logout?id_token_hint=${TOKEN}&state=${SECRETS.state}`,
      `/sign-in/callback/google?code=${SECRETS.code}&state=${SECRETS.state}`,
      `/healthz?${query}`,
      `/no-such-path?${query}`,
      `/test-fastify-request-log?${query}`,
    ];
    for (const url of urls) await t.app.inject({ url });
    // The access lines of these requests: the last ones (the /oauth2 mount logs the path below it).
    const lines = t.logs().filter((line) => line.msg === 'request').slice(-urls.length);
    expect(lines.map((line) => line.route)).toEqual(['/oauth2/*', '/sign-in/callback/:provider', '/healthz', '(unmatched)', '/test-fastify-request-log']);
    for (const line of lines) expect(String(line.url)).toContain('=%5Bredacted%5D');
    // The harmless parameter is kept as it was.
    expect(lines.some((line) => String(line.url).includes('size=1'))).toBe(true);
    const text = logText();
    for (const [name, value] of Object.entries(SECRETS)) expect(text, name).not.toContain(value);
  });

  it("Fastify's own request line (req serializer) is redacted the same way", async () => {
    await t.app.inject({ url: `/test-fastify-request-log?${query}` });
    const line = t.logs().findLast((entry) => entry.msg === 'incoming request') as { req?: { url?: string } } | undefined;
    expect(line?.req?.url).toMatch(/^\/test-fastify-request-log\?/);
    expect(line!.req!.url).toContain('size=1');
    for (const value of Object.values(SECRETS)) expect(line!.req!.url).not.toContain(value);
  });
});
