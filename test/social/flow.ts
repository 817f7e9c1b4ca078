// Drives our authorization server over real HTTP the way the dashboard and a browser do: our
// /oauth2/authorize (PKCE), our sign-in page, a provider button, the provider (a local stand-in),
// our callback, back into the authorization request, and the code exchanged at our /oauth2/token.
import * as oidc from 'openid-client';
import { expect } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { Browser, type BrowserResponse } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';

export interface RunningServer {
  base: string;
  test: TestApp;
  close(): Promise<void>;
}

/** Our server listening on loopback, its BASE_URL its real address (the issuer and redirect URIs depend on it). */
export async function startServer(env: Record<string, string> = {}, knownPort?: number): Promise<RunningServer> {
  const port = knownPort ?? (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const test = await buildTestApp({ BASE_URL: base, PORT: String(port), ...env });
  await test.app.listen({ port, host: '127.0.0.1' });
  return { base, test, close: () => test.close() };
}

export const DASHBOARD = 'dashboard';
export const dashboardCallback = (base: string) => `${base}/dashboard/callback`;

export interface Authorization {
  browser: Browser;
  /** Our sign-in page, as the browser got it. */
  signInPage: BrowserResponse;
  codeVerifier: string;
  state: string;
}

/** A browser opens the dashboard's authorization request and arrives at our sign-in page. */
export async function openSignInPage(base: string, browser = new Browser()): Promise<Authorization> {
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = new URL(`${base}/oauth2/authorize`);
  url.search = new URLSearchParams({
    client_id: DASHBOARD,
    redirect_uri: dashboardCallback(base),
    response_type: 'code',
    scope: 'openid email profile',
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  }).toString();
  const signInPage = await browser.follow(url.href);
  expect(signInPage.status).toBe(200);
  expect(new URL(signInPage.url).pathname).toMatch(/^\/sign-in\/[^/]+$/);
  return { browser, signInPage, codeVerifier, state };
}

/** The href of the sign-in page's button for a provider, or undefined when there is none. */
export function providerButton(page: BrowserResponse, provider: string): string | undefined {
  const hrefs = [...page.body.matchAll(/href="([^"]+)"/g)].map((match) => match[1].replaceAll('&amp;', '&'));
  return hrefs.find((href) => new RegExp(`^/sign-in/[^/]+/${provider}$`).test(href));
}

/**
 * Clicks the provider's button and follows every redirect: to the provider, back to our callback,
 * back into the authorization request, until our server sends the browser to the dashboard's
 * redirect URI (returned) or shows a page (returned too).
 */
export async function clickProvider(base: string, authorization: Authorization, provider: string): Promise<BrowserResponse> {
  const href = providerButton(authorization.signInPage, provider);
  expect(href, `a ${provider} button on the sign-in page`).toBeDefined();
  return authorization.browser.follow(new URL(href!, base).href, {}, {
    stopAt: (location) => location.href.startsWith(dashboardCallback(base)),
  });
}

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  token_type: string;
}

/** The dashboard's half: the code from the redirect, exchanged at our /oauth2/token with the PKCE verifier. */
export async function exchangeCode(base: string, authorization: Authorization, landing: BrowserResponse): Promise<Tokens> {
  const url = new URL(landing.url);
  expect(url.href.startsWith(dashboardCallback(base)), `landed at the dashboard, not ${landing.url}: ${landing.body.slice(0, 300)}`).toBe(true);
  expect(url.searchParams.get('state')).toBe(authorization.state);
  const code = url.searchParams.get('code');
  expect(code).toBeTruthy();
  const response = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: dashboardCallback(base),
      client_id: DASHBOARD,
      code_verifier: authorization.codeVerifier,
    }),
  });
  const body = (await response.json()) as Tokens;
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.token_type).toMatch(/^bearer$/i);
  return body;
}

/** From nothing to an access token: authorize, sign in with the provider, exchange the code. */
export async function signInWith(base: string, provider: string): Promise<Tokens> {
  const authorization = await openSignInPage(base);
  const landing = await clickProvider(base, authorization, provider);
  return exchangeCode(base, authorization, landing);
}

export function bearer(tokens: Tokens): Record<string, string> {
  return { authorization: `Bearer ${tokens.access_token}` };
}
