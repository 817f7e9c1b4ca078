// The social sign-in connectors: Google and LinkedIn as OpenID Connect relying parties found by
// discovery, Facebook as a plain OAuth 2 client plus its Graph `me` call, all through
// openid-client. Built once at start from the settings (composition root); a provider whose client
// id and secret are not configured has no connector, so it is off.
import { createHmac } from 'node:crypto';
import * as oidc from 'openid-client';
import type { FacebookSettings, OidcProviderSettings, SocialSettings } from '../../config.ts';
import { PROVIDER_NAMES, profileFromFacebook, profileFromOidcClaims, type ExternalProfile, type SocialProvider } from './profile.ts';

/** The secrets of one upstream attempt: kept on our side between the redirect and the callback. */
export interface UpstreamChecks {
  redirectUri: string;
  state: string;
  /** Sent and checked only by connectors with `usesNonce`. */
  nonce: string;
  /** Sent (as its S256 challenge) and checked only by connectors with `usesPkce`. */
  codeVerifier: string;
}

export interface SocialConnector {
  provider: SocialProvider;
  /** Shown on the sign-in button. */
  displayName: string;
  usesPkce: boolean;
  usesNonce: boolean;
  /**
   * The provider's code is bound to the browser's own attempt: PKCE, or a nonce checked in the ID
   * token. Without either, a code leaked from someone else's sign-in could be redeemed with an
   * attacker's own state (code injection), so such a connector signs nobody in (service.ts).
   */
  bindsCode: boolean;
  /** Where to send the browser. May fetch the provider's discovery document (first use only). */
  authorizationUrl(checks: UpstreamChecks): Promise<URL>;
  /**
   * Completes the upstream flow from the URL the provider redirected back to: validates state,
   * redeems the code (with the PKCE verifier), validates the ID token (nonce) and reads the profile.
   * Throws UpstreamDeniedError when the person cancelled or the provider refused.
   */
  complete(callbackUrl: URL, checks: UpstreamChecks): Promise<ExternalProfile>;
}

export type SocialConnectors = ReadonlyMap<SocialProvider, SocialConnector>;

/** The provider answered the authorization request with an error (the person said no, usually). */
export class UpstreamDeniedError extends Error {}

function isPlainHttp(url: string): boolean {
  return new URL(url).protocol === 'http:';
}

function rethrowDenied(error: unknown): never {
  // The provider put `error=...` in the redirect back: not a fault of ours.
  if (error instanceof oidc.AuthorizationResponseError) throw new UpstreamDeniedError(error.error);
  throw error;
}

async function pkceChallenge(connector: { usesPkce: boolean }, checks: UpstreamChecks): Promise<Record<string, string>> {
  if (!connector.usesPkce) return {};
  return { code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier), code_challenge_method: 'S256' };
}

/**
 * Google, LinkedIn. Discovery runs on first use, not at start, so a provider that is briefly
 * unreachable does not stop the server starting; a failed discovery is retried on the next use.
 */
function oidcConnector(
  provider: SocialProvider,
  settings: OidcProviderSettings,
  timeoutSeconds: number,
  usesNonce: boolean,
): SocialConnector {
  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = () => {
    discovered ??= oidc
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        undefined,
        // LinkedIn accepts only client_secret_post; Google accepts it too.
        oidc.ClientSecretPost(settings.clientSecret),
        {
          timeout: timeoutSeconds,
          // The ID token's signature is checked against the provider's published keys (jwks_uri):
          // a token signed with any other key is refused, whatever it claims.
          execute: [...(isPlainHttp(settings.issuer) ? [oidc.allowInsecureRequests] : []), oidc.enableNonRepudiationChecks],
        },
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  };

  const connector: SocialConnector = {
    provider,
    displayName: PROVIDER_NAMES[provider],
    usesPkce: settings.pkce,
    usesNonce,
    bindsCode: settings.pkce || usesNonce,
    async authorizationUrl(checks) {
      return oidc.buildAuthorizationUrl(await configuration(), {
        redirect_uri: checks.redirectUri,
        scope: 'openid email profile',
        state: checks.state,
        ...(usesNonce ? { nonce: checks.nonce } : {}),
        ...(await pkceChallenge(connector, checks)),
      });
    },
    async complete(callbackUrl, checks) {
      const config = await configuration();
      const tokens = await oidc
        .authorizationCodeGrant(config, callbackUrl, {
          expectedState: checks.state,
          ...(usesNonce ? { expectedNonce: checks.nonce } : {}),
          ...(settings.pkce ? { pkceCodeVerifier: checks.codeVerifier } : {}),
          idTokenExpected: true,
        })
        .catch(rethrowDenied);
      let claims: Record<string, unknown> = { ...tokens.claims() };
      // Google puts the e-mail in the ID token; a provider that keeps it for userinfo is asked there
      // (for the same subject: openid-client checks it).
      if (claims.email === undefined) {
        claims = { ...claims, ...(await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub))) };
      }
      return profileFromOidcClaims(provider, claims);
    },
  };
  return connector;
}

/** appsecret_proof: Graph calls carry an HMAC of the token under the app secret (a stolen token alone is not enough). */
export function appSecretProof(accessToken: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(accessToken).digest('hex');
}

const MAX_GRAPH_ANSWER = 64 * 1024;

function facebookConnector(settings: FacebookSettings, timeoutSeconds: number): SocialConnector {
  const config = new oidc.Configuration(
    // Facebook Login is OAuth 2 without discovery: its endpoints are settings.
    { issuer: 'https://www.facebook.com', authorization_endpoint: settings.authorizeUrl, token_endpoint: settings.tokenUrl },
    settings.clientId,
    undefined,
    oidc.ClientSecretPost(settings.clientSecret),
  );
  config.timeout = timeoutSeconds;
  if ([settings.authorizeUrl, settings.tokenUrl, settings.graphUrl].some(isPlainHttp)) oidc.allowInsecureRequests(config);

  const connector: SocialConnector = {
    provider: 'facebook',
    displayName: PROVIDER_NAMES.facebook,
    usesPkce: settings.pkce,
    usesNonce: false,
    bindsCode: settings.pkce,
    async authorizationUrl(checks) {
      return oidc.buildAuthorizationUrl(config, {
        redirect_uri: checks.redirectUri,
        scope: 'email public_profile',
        state: checks.state,
        ...(await pkceChallenge(connector, checks)),
      });
    },
    async complete(callbackUrl, checks) {
      const tokens = await oidc
        .authorizationCodeGrant(config, callbackUrl, {
          expectedState: checks.state,
          ...(settings.pkce ? { pkceCodeVerifier: checks.codeVerifier } : {}),
          idTokenExpected: false,
        })
        .catch(rethrowDenied);
      const me = new URL(`${settings.graphUrl}/me`);
      me.searchParams.set('fields', 'id,name,email,picture');
      me.searchParams.set('appsecret_proof', appSecretProof(tokens.access_token, settings.clientSecret));
      const response = await oidc.fetchProtectedResource(config, tokens.access_token, me, 'GET');
      const body = await response.text();
      if (!response.ok) throw new Error(`Facebook Graph me answered ${response.status}`);
      if (body.length > MAX_GRAPH_ANSWER) throw new Error('Facebook Graph me answer is too large');
      const parsed: unknown = JSON.parse(body);
      if (typeof parsed !== 'object' || parsed === null) throw new Error('Facebook Graph me answer is not an object');
      return profileFromFacebook(parsed as Record<string, unknown>);
    },
  };
  return connector;
}

export function buildSocialConnectors(settings: SocialSettings): SocialConnectors {
  const connectors = new Map<SocialProvider, SocialConnector>();
  // Google echoes the nonce in its ID token; LinkedIn does not, so asking it to would fail every
  // sign-in, and its code is bound only with LINKEDIN_PKCE (docs/identity.md, "LinkedIn").
  if (settings.google) connectors.set('google', oidcConnector('google', settings.google, settings.timeoutSeconds, true));
  if (settings.linkedin) connectors.set('linkedin', oidcConnector('linkedin', settings.linkedin, settings.timeoutSeconds, false));
  if (settings.facebook) connectors.set('facebook', facebookConnector(settings.facebook, settings.timeoutSeconds));
  return connectors;
}
