// /docs works offline: the page and its configuration name no host but this server, the page's
// Content-Security-Policy lets the browser load nothing from any other host (scripts, styles,
// fonts, images, connections), no web fonts are asked for, and the cloud-only features are off.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ BASE_URL: 'https://api.recruiting.example' });
});
afterAll(async () => t.close());

const OWN_ORIGIN = 'https://api.recruiting.example';
/** CSP sources that name no outside host. */
const LOCAL_SOURCE = /^('self'|'none'|'unsafe-inline'|'sha256-[A-Za-z0-9+/=]+'|data:|blob:)$/;

async function page() {
  const res = await t.app.inject({ method: 'GET', url: '/docs/' });
  expect(res.statusCode).toBe(200);
  return res;
}

it('the page names no outside host: every URL in it is relative or this server', async () => {
  const res = await page();
  const urls = [...res.body.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((match) => match[0]);
  for (const url of urls) expect(new URL(url).origin, url).toBe(OWN_ORIGIN);
  const references = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
  expect(references.length).toBeGreaterThan(0);
  for (const reference of references) expect(new URL(reference, `${OWN_ORIGIN}/docs/`).origin, reference).toBe(OWN_ORIGIN);
});

it('the Content-Security-Policy of the page and its script allows no outside host for anything', async () => {
  const res = await page();
  const script = [...res.body.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1])[0];
  const scriptRes = await t.app.inject({ method: 'GET', url: new URL(script, `${OWN_ORIGIN}/docs/`).pathname });
  expect(scriptRes.statusCode).toBe(200);
  for (const policy of [res.headers['content-security-policy'], scriptRes.headers['content-security-policy']]) {
    expect(typeof policy).toBe('string');
    const directives = Object.fromEntries(
      (policy as string).split(';').map((part) => {
        const [name, ...sources] = part.trim().split(/\s+/);
        return [name, sources];
      }),
    );
    expect(directives['default-src']).toEqual(["'self'"]);
    for (const name of ['script-src', 'style-src', 'font-src', 'img-src', 'connect-src', 'default-src']) {
      for (const source of directives[name] ?? []) expect(source, `${name} ${source}`).toMatch(LOCAL_SOURCE);
    }
  }
});

it('asks for no web fonts and turns the cloud-only features off', async () => {
  const res = await page();
  const config = JSON.parse(/createApiReference\('#app', (\{[\s\S]*?\})\)/.exec(res.body)![1]);
  expect(config).toMatchObject({
    url: '/openapi.json',
    withDefaultFonts: false,
    hideClientButton: true,
    showDeveloperTools: 'never',
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
  });
  for (const url of Object.values(config.externalUrls as Record<string, string>)) expect(url).toBe(OWN_ORIGIN);
});
