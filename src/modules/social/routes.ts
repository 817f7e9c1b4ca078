// The browser side of social sign-in. The sign-in page (oauth module) shows one button per
// configured provider, leading to GET /sign-in/{uid}/{provider}: we send the browser to the provider
// with PKCE, state and nonce. The provider sends it back to GET /sign-in/callback/{provider} (the
// one redirect URI to register with the provider): we finish there, link the person to a user and
// hand the browser back to the authorization request it came from.
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply } from 'fastify';
import type Provider from 'oidc-provider';
import type { Config } from '../../config.ts';
import type { AppInstance } from '../../http/app-instance.ts';
import { NotFoundError } from '../../shared/errors.ts';
import { messagePage } from '../../shared/html-page.ts';
import { SIGN_IN_PREFIX } from '../oauth/provider.ts';
import { completeSignIn } from '../oauth/service.ts';
import type { SocialConnector, SocialConnectors } from './connectors.ts';
import { isSocialProvider } from './profile.ts';
import { ATTEMPT_TTL_SECONDS, finishSocialSignIn, SocialSignInError, startSocialSignIn, type SocialSignInFailure } from './service.ts';

export interface SocialRouteOptions {
  provider: Provider;
  connectors: SocialConnectors;
  config: Config;
}

const CALLBACK_PREFIX = `${SIGN_IN_PREFIX}/callback`;
const STATE_COOKIE = 'social_state';

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

/** The redirect URI to register at each provider: {BASE_URL}/sign-in/callback/{provider}. */
export function socialRedirectUri(baseUrl: string, provider: string): string {
  return `${baseUrl}${CALLBACK_PREFIX}/${provider}`;
}

const FAILURE_PAGES: Record<SocialSignInFailure, { status: number; title: string; advice: string }> = {
  expired: {
    status: 400,
    title: 'Sign-in expired',
    advice: 'This sign-in has expired, was already used, or was started in another browser. Start again from the application.',
  },
  denied: { status: 403, title: 'Sign-in cancelled', advice: 'You were not signed in. Start again from the application to try once more.' },
  email_not_verified: {
    status: 403,
    title: 'E-mail address not verified',
    advice:
      'We can only sign you in when the provider confirms that the e-mail address on your account is verified. ' +
      'Verify your address with the provider (or add one), then try again, or choose another way to sign in.',
  },
  unbound: {
    status: 403,
    title: 'Sign-in method unavailable',
    advice:
      'A code from this provider could be replayed from another person\'s sign-in, so it is not accepted. Choose another way to sign in. ' +
      '(Operators: see docs/identity.md, "Social sign-in providers".)',
  },
  provider_failed: {
    status: 502,
    title: 'Sign-in provider unavailable',
    advice: 'The sign-in provider could not be reached or gave an answer we cannot use. Please try again in a moment.',
  },
};

/**
 * What went wrong upstream, for the log: each error's name, code and message down the cause chain,
 * never the objects openid-client attaches (token responses, ID token claims, e-mail addresses).
 */
export function describeFailure(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error && parts.length < 5; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    parts.push(`${e.name}${typeof code === 'string' ? ` ${code}` : ''}: ${e.message}`);
  }
  return parts.join(' <- ');
}

export async function socialRoutes(app: AppInstance, options: SocialRouteOptions): Promise<void> {
  const { provider, connectors, config } = options;
  for (const connector of connectors.values()) {
    if (!connector.bindsCode) {
      app.log.warn(
        { provider: connector.provider },
        `${connector.displayName} sign-in is configured but off: its code is bound to the browser neither by PKCE nor by a nonce (docs/identity.md)`,
      );
    }
  }
  const secure = new URL(config.baseUrl).protocol === 'https:';
  const connectorFor = (name: string): SocialConnector => {
    const connector = isSocialProvider(name) ? connectors.get(name) : undefined;
    // Not configured (no client id and secret): the provider is off, exactly as if unknown.
    if (!connector) throw new NotFoundError('Sign-in provider');
    return connector;
  };
  const stateCookie = (provider: string, value: string, maxAge: number) =>
    stringifySetCookie({
      name: STATE_COOKIE,
      value,
      maxAge,
      // Only the callback ever needs it; Lax is sent on the provider's top-level redirect back.
      path: `${CALLBACK_PREFIX}/${provider}`,
      httpOnly: true,
      sameSite: 'lax',
      secure,
    });
  const failurePage = (reply: FastifyReply, error: SocialSignInError) => {
    const page = FAILURE_PAGES[error.failure];
    return reply.code(page.status).headers(PAGE_HEADERS).send(messagePage(page.title, `${error.message}. ${page.advice}`));
  };
  const params = {
    type: 'object',
    properties: { uid: { type: 'string', minLength: 1, maxLength: 100 }, provider: { type: 'string', maxLength: 20 } },
  } as const;

  app.get<{ Params: { uid: string; provider: string } }>(
    `${SIGN_IN_PREFIX}/:uid/:provider`,
    { schema: { hide: true, params: { ...params, required: ['uid', 'provider'] } } },
    async (request, reply) => {
      const connector = connectorFor(request.params.provider);
      // The browser must hold this authorization request's interaction cookie (scoped to
      // /sign-in/{uid}): a link from elsewhere cannot start a sign-in for someone else's request.
      const interaction = await provider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
      if (!interaction || interaction.uid !== request.params.uid) {
        return failurePage(reply, new SocialSignInError('expired', 'This sign-in has expired'));
      }
      try {
        const { location, state } = await startSocialSignIn(app.ctx, connector, {
          interactionUid: interaction.uid,
          redirectUri: socialRedirectUri(config.baseUrl, connector.provider),
        });
        return reply
          .code(303)
          .header('set-cookie', stateCookie(connector.provider, state, ATTEMPT_TTL_SECONDS))
          .header('cache-control', 'no-store')
          .header('location', location.href)
          .send();
      } catch (error) {
        if (!(error instanceof SocialSignInError)) throw error;
        request.log.warn({ provider: connector.provider, reason: describeFailure(error.cause) }, 'social sign-in could not start');
        return failurePage(reply, error);
      }
    },
  );

  app.get<{ Params: { provider: string } }>(
    `${CALLBACK_PREFIX}/:provider`,
    { schema: { hide: true, params: { ...params, required: ['provider'] } } },
    async (request, reply) => {
      const connector = connectorFor(request.params.provider);
      const redirectUri = socialRedirectUri(config.baseUrl, connector.provider);
      // The URL the provider redirected to, as registered (BASE_URL, not whatever Host was sent).
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const browserState = parseCookie(request.headers.cookie ?? '')[STATE_COOKIE];
      reply.header('set-cookie', stateCookie(connector.provider, '', 0));
      try {
        const { interactionUid, signedIn } = await finishSocialSignIn(app.ctx, connector, {
          callbackUrl: new URL(`${redirectUri}${query}`),
          redirectUri,
          browserState,
        });
        const location = await completeSignIn(provider, interactionUid, signedIn.user.id);
        return reply.code(303).header('cache-control', 'no-store').header('location', location).send();
      } catch (error) {
        if (!(error instanceof SocialSignInError)) throw error;
        request.log.warn(
          { provider: connector.provider, failure: error.failure, reason: describeFailure(error.cause) },
          'social sign-in failed',
        );
        return failurePage(reply, error);
      }
    },
  );
}
