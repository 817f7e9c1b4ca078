// Runs the authorization code flow with PKCE against a running server, as a relying party built on
// openid-client would, driving our sign-in (and consent) pages over HTTP with the dev sign-in.
import * as oidc from 'openid-client';
import { Browser, formAction } from './browser.ts';

export interface FlowOptions {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  redirectUri: string;
  scope: string;
  email: string;
  /** Approve the consent page if one is shown (third-party clients). */
  consent?: 'approve' | 'deny';
  browser?: Browser;
}

export async function discover(issuer: string, clientId: string, clientSecret?: string): Promise<oidc.Configuration> {
  return oidc.discovery(
    new URL(issuer),
    clientId,
    undefined,
    clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None(),
    { execute: [oidc.allowInsecureRequests] },
  );
}

export interface FlowResult {
  config: oidc.Configuration;
  tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;
  browser: Browser;
  /** Where the flow came back to the client (with the authorization code). */
  callback: URL;
}

export async function signInAndGetTokens(options: FlowOptions): Promise<FlowResult> {
  const config = await discover(options.issuer, options.clientId, options.clientSecret);
  const browser = options.browser ?? new Browser();
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const authorizationUrl = oidc.buildAuthorizationUrl(config, {
    redirect_uri: options.redirectUri,
    scope: options.scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  let page = await browser.follow(authorizationUrl.href, options.redirectUri);
  if (page.status === 200 && page.body.includes('/dev"')) {
    page = await browser.follow(formAction(page, '/dev'), options.redirectUri, { form: { email: options.email, name: 'Test User' } });
  }
  if (page.status === 200 && page.body.includes('/consent"')) {
    const action = formAction(page, options.consent === 'deny' ? '/deny' : '/consent');
    page = await browser.follow(action, options.redirectUri, { form: {} });
  }
  if (!page.location?.startsWith(options.redirectUri)) {
    throw new Error(`flow did not come back to the client: ${page.status} ${page.location ?? ''} ${page.body.slice(0, 300)}`);
  }
  const callback = new URL(page.location);
  const tokens = await oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return { config, tokens, browser, callback };
}

/**
 * Signs `email` in through the first-party dashboard's flow on a listening app (development
 * sign-in; the first sign-in makes the user and a company) and answers its Bearer headers.
 */
export async function dashboardBearer(app: { issuer: string; dashboardRedirect: string }, email: string): Promise<{ authorization: string }> {
  const { tokens } = await signInAndGetTokens({
    issuer: app.issuer,
    clientId: 'dashboard',
    redirectUri: app.dashboardRedirect,
    scope: 'openid email profile',
    email,
  });
  return { authorization: `Bearer ${tokens.access_token}` };
}
