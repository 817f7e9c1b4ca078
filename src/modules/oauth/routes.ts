// HTTP side of the authorization server: oidc-provider mounted under /oauth2, and our own
// sign-in and consent pages under /sign-in/{uid} (the provider sends the browser there whenever
// it needs the user: to sign in, or to consent for a third-party client).
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Config } from '../../config.ts';
import type { AppInstance } from '../../http/app-instance.ts';
import { DomainError, ValidationError } from '../../shared/errors.ts';
import { getMembership, getUser, signInVerifiedUser } from '../users/service.ts';
import { DASHBOARD_CLIENT_ID, dashboardRedirectUris } from './clients.ts';
import { bindGrant, grantStillCurrent } from './grant-binding.ts';
import { consentPage, signInPage } from './pages.ts';
import { describeScope, OAUTH_PREFIX, SIGN_IN_PREFIX, SIGN_OUT_SCRIPT, TOKEN_TTL_SECONDS } from './provider.ts';
import { completeSignIn, type Identity } from './service.ts';

export interface OAuthRouteOptions {
  /** The authorization server and the ways to sign in it offers (built in src/deps.ts). */
  identity: Identity;
  config: Config;
}

const FORM_BODY_LIMIT = 16 * 1024;

// No script, no asset from elsewhere, never inside a frame (the consent page must not be clickjacked).
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

class SignInExpiredError extends DomainError {
  constructor() {
    super('SIGN_IN_EXPIRED', 'This sign-in has expired or was started in another browser: start again from the application');
  }
}

/**
 * oidc-provider (Koa) builds every URL it publishes (discovery, JWKS, redirects, the sign-out form)
 * from the request's scheme and host. It is given BASE_URL's instead, and the client address
 * Fastify found (X-Forwarded-For believed only from TRUST_PROXY), through the forwarded headers it
 * trusts (buildProvider sets `proxy`): no Host, X-Forwarded-Host or Forwarded of a client reaches it.
 */
function asPublished(raw: IncomingMessage, published: URL, clientIp: string): void {
  raw.headers.host = published.host;
  raw.headers['x-forwarded-proto'] = published.protocol.slice(0, -1);
  raw.headers['x-forwarded-for'] = clientIp;
  delete raw.headers['x-forwarded-host'];
  delete raw.headers.forwarded;
}

/** Hands /oauth2/* to oidc-provider (a Koa app) as a raw Node request, with the prefix stripped. */
async function mountProvider(app: FastifyInstance, provider: Provider, baseUrl: string): Promise<void> {
  const callback = provider.callback();
  const published = new URL(baseUrl);
  await app.register(async (scope) => {
    // oidc-provider reads (and limits) its own bodies: leave the request stream untouched.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '').slice(OAUTH_PREFIX.length) || '/';
      asPublished(raw, published, request.ip);
      reply.raw.setHeader('X-Request-Id', request.id);
      await new Promise<void>((resolve) => {
        reply.raw.once('finish', resolve);
        reply.raw.once('close', resolve);
        void callback(raw, reply.raw);
      });
    };
    scope.all(OAUTH_PREFIX, { schema: { hide: true } }, handler);
    scope.all(`${OAUTH_PREFIX}/*`, { schema: { hide: true } }, handler);
  });
}

function formBody(body: unknown): Record<string, string> {
  return body && typeof body === 'object' ? (body as Record<string, string>) : {};
}

export async function oauthRoutes(app: AppInstance, options: OAuthRouteOptions): Promise<void> {
  const { identity, config } = options;
  const { provider } = identity;
  await mountProvider(app, provider, config.baseUrl);

  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    // The interaction is found through its cookie (SameSite=Lax, scoped to this path), so a form
    // posted from another site finds none: the cookie is this flow's protection against CSRF.
    const details = async (request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply) => {
      try {
        const found = await provider.interactionDetails(request.raw, reply.raw);
        if (found.uid !== request.params.uid) throw new SignInExpiredError();
        return found;
      } catch (error) {
        if (error instanceof DomainError) throw error;
        if ((error as { name?: string }).name === 'SessionNotFound') throw new SignInExpiredError();
        throw error;
      }
    };
    const redirectTo = (reply: FastifyReply, location: string) => reply.code(303).header('location', location).send();
    const params = { type: 'object', properties: { uid: { type: 'string', maxLength: 100 } }, required: ['uid'] } as const;
    const hidden = { hide: true, params };

    // The address people are given to sign in: starts the dashboard's own authorization request.
    // The dashboard (src/http/dashboard.ts) does not know this request's verifier: on a callback it
    // did not start, it starts its own request, which the new sign-in session lets straight through.
    scope.get(SIGN_IN_PREFIX, { schema: { hide: true } }, async (_request, reply) => {
      const url = new URL(`${config.baseUrl}${OAUTH_PREFIX}/authorize`);
      url.search = new URLSearchParams({
        client_id: DASHBOARD_CLIENT_ID,
        response_type: 'code',
        redirect_uri: dashboardRedirectUris(config.baseUrl)[0],
        scope: 'openid profile email',
        state: randomBytes(16).toString('base64url'),
        code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
        code_challenge_method: 'S256',
      }).toString();
      return reply.code(303).header('location', url.href).send();
    });
    // The sign-out page's only script (the pages allow scripts of this origin only, none inline):
    // it presses the page's own "Sign out" button, with the form's one-time token in it.
    scope.get(SIGN_OUT_SCRIPT, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type('text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(
          "const form = document.getElementById('op.logoutForm');\nconst button = document.querySelector('button[form=\"op.logoutForm\"]');\nif (form && button) form.requestSubmit(button);\n",
        ),
    );
    scope.get<{ Params: { uid: string } }>(`${SIGN_IN_PREFIX}/:uid`, { schema: hidden }, async (request, reply) => {
      const interaction = await details(request, reply);
      const uid = encodeURIComponent(interaction.uid);
      const client = await provider.Client.find(String(interaction.params.client_id));
      const clientName = String(client?.clientName ?? interaction.params.client_id);
      if (interaction.prompt.name === 'consent') {
        const user = interaction.session?.accountId ? await getUser(app.ctx, interaction.session.accountId) : undefined;
        const missing = [
          ...((interaction.prompt.details.missingOIDCScope as string[] | undefined) ?? []),
        ];
        return reply.headers(PAGE_HEADERS).send(
          consentPage({
            clientName,
            userEmail: user?.email ?? 'unknown user',
            scopes: missing.map((scope) => ({ scope, description: describeScope(scope) })),
            approveAction: `${SIGN_IN_PREFIX}/${uid}/consent`,
            denyAction: `${SIGN_IN_PREFIX}/${uid}/deny`,
          }),
        );
      }
      return reply.headers(PAGE_HEADERS).send(
        signInPage({
          clientName,
          buttons: identity.signInMethods.map((method) => ({ label: method.label, href: method.startPath(interaction.uid) })),
          devSignInAction: config.devSignIn ? `${SIGN_IN_PREFIX}/${uid}/dev` : undefined,
        }),
      );
    });

    scope.post<{ Params: { uid: string } }>(`${SIGN_IN_PREFIX}/:uid/dev`, { schema: hidden }, async (request, reply) => {
      if (!config.devSignIn) {
        throw new DomainError('FORBIDDEN', 'The development sign-in is off on this server');
      }
      const interaction = await details(request, reply);
      const form = formBody(request.body);
      if (typeof form.email !== 'string' || form.email.length > 320) throw ValidationError.field('email', 'must be an e-mail address');
      // Development only: whoever types an address is taken at their word.
      const signedIn = await signInVerifiedUser(app.ctx, {
        email: form.email,
        emailVerified: true,
        name: typeof form.name === 'string' ? form.name.slice(0, 200) : undefined,
      });
      return redirectTo(reply, await completeSignIn(provider, interaction.uid, signedIn.user.id));
    });

    scope.post<{ Params: { uid: string } }>(`${SIGN_IN_PREFIX}/:uid/consent`, { schema: hidden }, async (request, reply) => {
      const interaction = await details(request, reply);
      if (interaction.prompt.name !== 'consent' || !interaction.session?.accountId) throw new SignInExpiredError();
      const accountId = interaction.session.accountId;
      const membership = await getMembership(app.ctx, accountId);
      if (!membership) throw new SignInExpiredError();
      // Scopes are added to the grant of this membership only: never to one made for a membership
      // that has since ended, whose old tokens would come back to life with it.
      const existing =
        interaction.grantId && (await grantStillCurrent(app.ctx, interaction.grantId, accountId))
          ? await provider.Grant.find(interaction.grantId)
          : undefined;
      const grant = existing ?? new provider.Grant({ accountId, clientId: String(interaction.params.client_id) });
      const promptDetails = interaction.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      if (promptDetails.missingOIDCScope) grant.addOIDCScope(promptDetails.missingOIDCScope.join(' '));
      if (promptDetails.missingOIDCClaims) grant.addOIDCClaims(promptDetails.missingOIDCClaims);
      const grantId = await grant.save();
      if (!existing) await bindGrant(app.ctx, grantId, membership, TOKEN_TTL_SECONDS.Grant);
      const location = await provider.interactionResult(request.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true });
      return redirectTo(reply, location);
    });

    scope.post<{ Params: { uid: string } }>(`${SIGN_IN_PREFIX}/:uid/deny`, { schema: hidden }, async (request, reply) => {
      await details(request, reply);
      const location = await provider.interactionResult(
        request.raw,
        reply.raw,
        { error: 'access_denied', error_description: 'The user denied access' },
        { mergeWithLastSubmission: false },
      );
      return redirectTo(reply, location);
    });
  });
}
