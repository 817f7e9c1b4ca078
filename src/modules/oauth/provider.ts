// The authorization server: oidc-provider configured for this service. Authorization code flow
// only, PKCE (S256) always, opaque access tokens kept in the database (15 minutes), rotating
// refresh tokens (30 days). Scopes: openid profile email offline_access and the API scopes.
import { timingSafeEqual } from 'node:crypto';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { ServiceContext } from '../../shared/context.ts';
import { messagePage } from '../../shared/html-page.ts';
import { ALL_SCOPES, SCOPES } from '../api-keys/scopes.ts';
import { getMembership, getUser } from '../users/service.ts';
import { databaseAdapter } from './adapter.ts';
import { DASHBOARD_CLIENT_ID, dashboardClient, hashClientSecret, isFirstPartyClient } from './clients.ts';
import { bindGrant, grantStillCurrent, membershipOfGrant } from './grant-binding.ts';
import type { OidcKeys } from './keys.ts';

export const OAUTH_PREFIX = '/oauth2';
export const SIGN_IN_PREFIX = '/sign-in';
/** Sends the sign-out confirmation of the dashboard's own sign-out (served by routes.ts). */
export const SIGN_OUT_SCRIPT = `${SIGN_IN_PREFIX}/assets/sign-out.js`;

export const TOKEN_TTL_SECONDS = {
  AccessToken: 15 * 60,
  AuthorizationCode: 60,
  IdToken: 60 * 60,
  RefreshToken: 30 * 24 * 60 * 60,
  Interaction: 60 * 60,
  Session: 30 * 24 * 60 * 60,
  Grant: 30 * 24 * 60 * 60,
} as const;

export const OIDC_SCOPES = {
  openid: 'sign you in',
  profile: 'see your name and picture',
  email: 'see your e-mail address',
  offline_access: 'stay connected while you are away',
} as const;

/** What each scope allows, in words for the consent page. */
export function describeScope(scope: string): string {
  if (Object.hasOwn(OIDC_SCOPES, scope)) return OIDC_SCOPES[scope as keyof typeof OIDC_SCOPES];
  if (Object.hasOwn(SCOPES, scope)) return SCOPES[scope as keyof typeof SCOPES];
  return scope;
}

export interface ProviderSettings {
  baseUrl: string;
}

// The discovery document depends on nothing in the request (every URL in it is BASE_URL's), so
// any cache may keep it a while. (Not the JWKS: a rotated key signs from the next start at once.)
const DISCOVERY_CACHE = 'public, max-age=300';

export function issuerOf(baseUrl: string): string {
  return `${baseUrl}${OAUTH_PREFIX}`;
}

/**
 * The first-party dashboard never sees a consent screen: its grant is completed with whatever
 * it asks for. Any other client gets the grant the user consented to. A grant made for a membership
 * that has since ended (the person was removed, then joined a company again) is never used again:
 * the dashboard gets a new one, bound to the current membership; another client asks for consent.
 */
async function loadExistingGrant(ctx: ServiceContext, koa: KoaContextWithOIDC) {
  const { client, session, provider } = koa.oidc;
  if (!client || !session) return undefined;
  const accountId = session.accountId;
  const grantId = koa.oidc.result?.consent?.grantId || session.grantIdFor(client.clientId);
  let grant = grantId ? await provider.Grant.find(grantId) : undefined;
  if (grant && (!accountId || !(await grantStillCurrent(ctx, grant.jti, accountId)))) grant = undefined;
  if (isFirstPartyClient(client.clientId) && accountId) {
    const made = grant === undefined;
    grant ??= new provider.Grant({ clientId: client.clientId, accountId });
    const requested = typeof koa.oidc.params?.scope === 'string' ? koa.oidc.params.scope : 'openid';
    grant.addOIDCScope(requested);
    const id = await grant.save();
    const membership = made ? await getMembership(ctx, accountId) : undefined;
    if (membership) await bindGrant(ctx, id, membership, TOKEN_TTL_SECONDS.Grant);
  }
  return grant;
}

export function buildProvider(ctx: ServiceContext, settings: ProviderSettings, keys: OidcKeys): Provider {
  const configuration: Configuration = {
    adapter: databaseAdapter(ctx),
    clients: [dashboardClient(settings.baseUrl) as never],
    jwks: keys.jwks as never,
    cookies: {
      keys: keys.cookieKeys,
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    async findAccount(_koa, sub, token) {
      // A code, refresh token or access token is refused once the membership of its grant ended.
      const grantId = (token as { grantId?: unknown } | undefined)?.grantId;
      if (token && (typeof grantId !== 'string' || !(await membershipOfGrant(ctx, grantId, sub)))) return undefined;
      const user = await getUser(ctx, sub);
      if (!user) return undefined;
      return {
        accountId: user.id,
        async claims() {
          return {
            sub: user.id,
            email: user.email,
            // Only verified addresses ever become a user's e-mail (see users/service.ts).
            email_verified: true,
            ...(user.name ? { name: user.name } : {}),
            ...(user.picture ? { picture: user.picture } : {}),
          };
        },
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    scopes: ['openid', 'offline_access', 'profile', 'email', ...ALL_SCOPES],
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'RS256',
    },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      introspection: { enabled: false },
      registration: { enabled: false },
      resourceIndicators: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(koa, form) {
          koa.type = 'html';
          // The dashboard's own sign-out (its client, with the ID token it was given: a link from
          // another site has none) is confirmed at once by a script of this origin; any other asks.
          const confirmAtOnce = koa.oidc.client?.clientId === DASHBOARD_CLIENT_ID && Boolean(koa.oidc.params?.id_token_hint);
          koa.body = messagePage('Sign out', confirmAtOnce ? 'Signing you out...' : 'Sign out of the recruiting dashboard?').replace(
            '</main>',
            `${form}<button class="primary" form="op.logoutForm" type="submit" name="logout" value="yes">Sign out</button>${
              confirmAtOnce ? `<script src="${SIGN_OUT_SCRIPT}" defer></script>` : ''
            }</main>`,
          );
        },
        async postLogoutSuccessSource(koa) {
          koa.type = 'html';
          koa.body = messagePage('Signed out', 'You are signed out.');
        },
      },
    },
    ttl: { ...TOKEN_TTL_SECONDS },
    rotateRefreshToken: true,
    // Every code exchange gets a refresh token (not only with offline_access): the dashboard stays
    // signed in across access-token lifetimes. Without offline_access it still ends with the session.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    interactions: { url: (_ctx, interaction) => `${SIGN_IN_PREFIX}/${interaction.uid}` },
    loadExistingGrant: (koa) => loadExistingGrant(ctx, koa),
    async renderError(koa, out) {
      koa.type = 'html';
      koa.body = messagePage('Sign-in error', `${out.error}: ${out.error_description ?? 'the request could not be completed'}`);
    },
    routes: {
      authorization: '/authorize',
      token: '/token',
      revocation: '/revoke',
      userinfo: '/userinfo',
      end_session: '/logout',
      jwks: '/jwks',
    },
  };
  const provider = new Provider(issuerOf(settings.baseUrl), configuration);
  // The forwarded headers it sees are set by our own mount from BASE_URL and the address Fastify
  // trusted, never a client's (routes.ts, asPublished).
  provider.proxy = true;
  provider.use(async (koa, next) => {
    await next();
    if (koa.oidc?.route === 'discovery' && koa.status === 200) koa.set('cache-control', DISCOVERY_CACHE);
  });
  // Client secrets are stored as SHA-256 hashes (clients.ts): compare the hash of what the client
  // sends. oidc-provider has no setting for this, hence the one override.
  provider.Client.prototype.compareClientSecret = async function compareHashed(this: { clientSecret?: string }, actual: string) {
    if (!this.clientSecret || typeof actual !== 'string') return false;
    const expected = Buffer.from(this.clientSecret);
    const given = Buffer.from(hashClientSecret(actual));
    return expected.length === given.length && timingSafeEqual(expected, given);
  };
  return provider;
}
