// What the rest of the service asks of the authorization server: who a bearer token speaks for,
// and the worker's purge of expired artifacts.
import type Provider from 'oidc-provider';
import type { Principal, ServiceContext } from '../../shared/context.ts';
import { UnauthorizedError } from '../../shared/errors.ts';
import { isScope } from '../api-keys/scopes.ts';
import { scopesOfRole } from '../users/roles.ts';
import { isFirstPartyClient } from './clients.ts';
import { membershipOfGrant } from './grant-binding.ts';
import { deleteExpiredPayloads } from './repo.ts';

// The OpenID scopes, named in the API document beside the API-key scopes.
export { OIDC_SCOPES } from './provider.ts';

// oidc-provider's opaque tokens are 43 base64url characters; anything far off is not worth a query.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,128}$/;

/**
 * Resolves an access token to the calling user and company, through the provider's own model (as
 * its userinfo endpoint does): the token (its expiry, and for a token that ends with its session,
 * that session still signed in to the same account and grant), then the grant it names (same client,
 * same account). Everything is read from the store on every request (like an API key), so a revoked
 * token, a signed-out session, a revoked grant or a removed membership fails on the very next
 * request, on every server. The first-party dashboard's tokens carry every API scope the user's role
 * allows (users/roles.ts); another client's only those of them the user granted it.
 */
export async function authenticateAccessToken(ctx: ServiceContext, provider: Provider, token: string): Promise<Principal> {
  const invalid = new UnauthorizedError('Invalid or expired access token');
  if (!TOKEN_SHAPE.test(token)) throw invalid;
  const accessToken = await provider.AccessToken.find(token);
  if (!accessToken) throw invalid;
  const { accountId, clientId, grantId } = accessToken;
  if (!accountId || !clientId || !grantId) throw invalid;
  // The grant, and the membership it was made for (not merely a membership of the user), at once.
  const [grant, membership] = await Promise.all([provider.Grant.find(grantId), membershipOfGrant(ctx, grantId, accountId)]);
  if (!grant || grant.clientId !== clientId || grant.accountId !== accountId) throw invalid;
  if (!membership) throw new UnauthorizedError('This user no longer belongs to the company this token was issued for');
  // The role bounds the scopes, read live: a MEMBER's token never writes what only an ADMIN may.
  const allowed = scopesOfRole(membership.role);
  const granted = (accessToken.scope ?? '').split(' ').filter((scope) => isScope(scope) && allowed.includes(scope));
  const firstParty = isFirstPartyClient(clientId);
  return {
    companyId: membership.companyId,
    scopes: firstParty ? allowed : granted,
    apiKeyId: null,
    userId: accountId,
    role: membership.role,
    firstParty,
  };
}

/**
 * Deletes up to `limit` authorization-server rows expired by `before` (reads already ignore them);
 * returns how many. The retention sweep runs it.
 */
export async function purgeExpiredOidcPayloads(ctx: ServiceContext, before: Date, limit: number): Promise<number> {
  return deleteExpiredPayloads(ctx.db, before, limit);
}

/** The authorization server and the ways to sign in it offers: built once per process (src/deps.ts). */
export interface Identity {
  provider: Provider;
  /** Buttons on the sign-in page, one per configured identity provider (each registers its routes). */
  signInMethods: readonly SignInMethod[];
}

/** A way to sign in offered on the sign-in page (Google, LinkedIn, Facebook...). */
export interface SignInMethod {
  /** Short name, also the path segment of its routes: "google". */
  id: string;
  /** Shown as "Continue with {label}". */
  label: string;
  /** Same-origin path the button leads to, starting this method's sign-in for the interaction. */
  startPath(interactionUid: string): string;
}

/**
 * Ends the sign-in step of an authorization request for this user (found or created by
 * signInVerifiedUser) and returns where to send the browser: back into the authorization request,
 * which the browser's own interaction cookie must still match. Works from any route (an identity
 * provider's callback included), as it needs only the interaction's uid.
 */
export async function completeSignIn(provider: Provider, interactionUid: string, userId: string): Promise<string> {
  const interaction = await provider.Interaction.find(interactionUid);
  if (!interaction) throw new UnauthorizedError('This sign-in has expired: start again from the application');
  interaction.result = { ...interaction.lastSubmission, login: { accountId: userId, remember: true } };
  await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
  return interaction.returnTo;
}
