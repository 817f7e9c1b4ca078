// Social sign-in: the upstream round trip (start, callback) and the linking rules that turn a
// provider's answer into one of our users.
//
// Linking rules, in order:
//   1. an external identity (provider + subject) already linked signs in its user;
//   2. otherwise a VERIFIED e-mail finds the user with that address, or creates one (which accepts
//      a pending invitation, else gets a new company: users/service.ts), and the identity is linked;
//   3. an unverified (or missing) e-mail never links to nor creates an account.
import { createHash, timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';
import type { ServiceContext } from '../../shared/context.ts';
import { SIGN_IN_PREFIX } from '../oauth/provider.ts';
import type { SignInMethod } from '../oauth/service.ts';
import { getUser, signInVerifiedUser, type SignedInUser } from '../users/service.ts';
import type { SocialConnector, SocialConnectors } from './connectors.ts';
import { UpstreamDeniedError } from './connectors.ts';
import { PROVIDER_NAMES, type ExternalProfile } from './profile.ts';
import {
  deleteExpiredSignInAttempts,
  findExternalIdentity,
  insertExternalIdentity,
  insertSignInAttempt,
  takeSignInAttempt,
  touchExternalIdentity,
} from './repo.ts';

/**
 * The buttons for the sign-in page: one per configured provider whose code is bound to the browser
 * (PKCE or nonce), in a fixed order. One that is not signs nobody in, so it gets no button.
 */
export function socialSignInMethods(connectors: SocialConnectors): SignInMethod[] {
  return [...connectors.values()].filter((connector) => connector.bindsCode).map((connector) => ({
    id: connector.provider,
    label: connector.displayName,
    startPath: (uid: string) => `${SIGN_IN_PREFIX}/${encodeURIComponent(uid)}/${connector.provider}`,
  }));
}

/** How long a person has at the provider before the attempt is forgotten. */
export const ATTEMPT_TTL_SECONDS = 10 * 60;

export type SocialSignInFailure =
  /** No attempt for this state in this browser: expired, used already, or started elsewhere. */
  | 'expired'
  /** The person cancelled at the provider, or the provider refused. */
  | 'denied'
  /** The provider could not vouch for an e-mail address: nothing is linked or created. */
  | 'email_not_verified'
  /** The provider was unreachable, slow, or answered something invalid. */
  | 'provider_failed'
  /** The provider's code cannot be bound to this browser (no PKCE, no nonce): it signs nobody in. */
  | 'unbound';

/** A sign-in that cannot go on; the callback shows a page explaining which kind. */
export class SocialSignInError extends Error {
  readonly failure: SocialSignInFailure;
  constructor(failure: SocialSignInFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.failure = failure;
  }
}

function hashState(state: string): string {
  return createHash('sha256').update(state).digest('hex');
}

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * A code not bound to the browser's attempt (no PKCE, no nonce in the ID token) could be one leaked
 * from another person's sign-in, redeemed with the attacker's own state: it would sign the attacker
 * in as that person, or create an account in their name that their next sign-in elsewhere reaches.
 * No linking rule makes that safe, so such a provider signs nobody in.
 */
function assertBindsCode(connector: SocialConnector): void {
  if (!connector.bindsCode) {
    throw new SocialSignInError('unbound', `${connector.displayName} sign-in is off on this server: it cannot bind ${connector.displayName}'s answer to your browser`);
  }
}

/**
 * Starts the upstream flow for an authorization request waiting at our sign-in page: remembers
 * the PKCE verifier, nonce and interaction, and returns where to send the browser and the state
 * to bind to the browser (as a cookie) so that only this browser can finish it.
 */
export async function startSocialSignIn(
  ctx: ServiceContext,
  connector: SocialConnector,
  input: { interactionUid: string; redirectUri: string },
): Promise<{ location: URL; state: string }> {
  assertBindsCode(connector);
  const state = oidc.randomState();
  const checks = { redirectUri: input.redirectUri, state, nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
  let location: URL;
  try {
    location = await connector.authorizationUrl(checks);
  } catch (error) {
    throw new SocialSignInError('provider_failed', `${connector.displayName} could not be reached`, { cause: error });
  }
  const now = ctx.clock.now();
  // Attempts abandoned at the provider are cleared as new ones start (indexed, usually nothing).
  await deleteExpiredSignInAttempts(ctx.db, now);
  await insertSignInAttempt(ctx.db, {
    stateHash: hashState(state),
    provider: connector.provider,
    interactionUid: input.interactionUid,
    codeVerifier: checks.codeVerifier,
    nonce: checks.nonce,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ATTEMPT_TTL_SECONDS * 1000),
  });
  return { location, state };
}

/**
 * Finishes the upstream flow from the provider's redirect back: the state must be the one bound
 * to this browser and still pending (each is used once); then the code is redeemed and the
 * person linked to a user by the rules above. Returns the interaction to resume and the user.
 */
export async function finishSocialSignIn(
  ctx: ServiceContext,
  connector: SocialConnector,
  input: { callbackUrl: URL; redirectUri: string; browserState: string | undefined },
): Promise<{ interactionUid: string; signedIn: SignedInUser; profile: ExternalProfile }> {
  assertBindsCode(connector);
  const state = input.callbackUrl.searchParams.get('state') ?? '';
  if (!state || !input.browserState || !sameString(state, input.browserState)) {
    throw new SocialSignInError('expired', 'This sign-in was not started in this browser, or has expired');
  }
  const attempt = await takeSignInAttempt(ctx.db, hashState(state));
  if (!attempt || attempt.provider !== connector.provider || attempt.expiresAt <= ctx.clock.now()) {
    throw new SocialSignInError('expired', 'This sign-in has expired or was already used');
  }
  let profile: ExternalProfile;
  try {
    profile = await connector.complete(input.callbackUrl, {
      redirectUri: input.redirectUri,
      state,
      nonce: attempt.nonce,
      codeVerifier: attempt.codeVerifier,
    });
  } catch (error) {
    if (error instanceof UpstreamDeniedError) {
      throw new SocialSignInError('denied', `${connector.displayName} did not sign you in`, { cause: error });
    }
    throw new SocialSignInError('provider_failed', `${connector.displayName} sign-in could not be completed`, { cause: error });
  }
  const signedIn = await signInExternalProfile(ctx, profile);
  return { interactionUid: attempt.interactionUid, signedIn, profile };
}

/** The linking rules (see the top of this file). */
export async function signInExternalProfile(ctx: ServiceContext, profile: ExternalProfile): Promise<SignedInUser> {
  const now = ctx.clock.now();
  const linked = await findExternalIdentity(ctx.db, profile.provider, profile.subject);
  const linkedUser = linked ? await getUser(ctx, linked.userId) : undefined;
  if (linked && linkedUser) {
    // The user's own address, verified when the account was made: the provider's current one may
    // differ (people change addresses) and is not what identifies them here.
    const signedIn = await signInVerifiedUser(ctx, {
      email: linkedUser.email,
      emailVerified: true,
      name: profile.name,
      picture: profile.picture,
    });
    await touchExternalIdentity(ctx.db, profile.provider, profile.subject, now);
    return signedIn;
  }
  if (!profile.email || !profile.emailVerified) {
    throw new SocialSignInError(
      'email_not_verified',
      `${PROVIDER_NAMES[profile.provider]} has not verified an e-mail address for this account, so it cannot be used to sign in`,
    );
  }
  const signedIn = await signInVerifiedUser(ctx, {
    email: profile.email,
    emailVerified: true,
    name: profile.name,
    picture: profile.picture,
  });
  await insertExternalIdentity(ctx.db, {
    provider: profile.provider,
    subject: profile.subject,
    userId: signedIn.user.id,
    email: profile.email,
    createdAt: now,
    lastSignInAt: now,
  });
  return signedIn;
}
