// Authentication and scope checks, declared per route as `config: { auth: { scope } }`.
// An onRoute hook turns that declaration into the onRequest check, the OpenAPI security entry and
// the documented error responses, so the three can never disagree.
// Two credentials: an API key (X-API-Key) or a user's OAuth access token (Authorization: Bearer).
// /public/v1 takes either; /settings takes only a user's token (`bearerOnly`).
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import type Provider from 'oidc-provider';
import { DomainError, ForbiddenError, UnauthorizedError } from '../shared/errors.ts';
import type { Principal, ServiceContext } from '../shared/context.ts';
import { apiKeyHash, authenticateApiKey } from '../modules/api-keys/service.ts';
import { authenticateAccessToken } from '../modules/oauth/service.ts';
import type { Scope } from '../modules/api-keys/scopes.ts';
import { scopesOfRole } from '../modules/users/roles.ts';
import { errorResponses } from './error-envelope.ts';

export interface RouteAuth {
  /** The scope the key must hold; null: any valid key (reference data). */
  scope: Scope | null;
  /** Only a user's access token is accepted, never an API key (/settings). */
  bearerOnly?: boolean;
  /** The user's role the operation needs in their company (403 otherwise). */
  role?: 'ADMIN';
  /**
   * For a person's access token, this scope is enough instead of `scope`: work a MEMBER (a
   * recruiter) does beside the pipeline, such as writing notes, which an API key does with `scope`.
   */
  peopleScope?: Scope;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** apiKeyHashOf's answer, once it was asked. */
    apiKeyHash: string | null;
    /**
     * Set by the failed-authentication limit when the caller's address is past it: a credential
     * that fails gets this error (429) instead of 401; a valid one goes through.
     */
    authFailureRefusal: (() => Error) | null;
  }
}

export const API_KEY_SCHEME = 'ApiKeyAuth';
export const OAUTH_SCHEME = 'oauth2';
export const OIDC_SCHEME = 'openIdConnect';

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

/** The challenges a 401 offers: the schemes the route accepts, and why the token failed if one was sent. */
function challenges(auth: RouteAuth, sentToken: boolean): string {
  const realm = auth.bearerOnly ? 'settings' : 'public';
  const bearer = `Bearer realm="${realm}"${sentToken ? ', error="invalid_token"' : ''}`;
  return auth.bearerOnly ? bearer : `ApiKey realm="public", header="X-API-Key", ${bearer}`;
}

/** The caller of an authenticated route; throws if used on a route without auth. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`route ${request.routeOptions.url} has no auth config`);
  return request.principal;
}

/** The credential a request offers, from its headers alone (the one principalFor checks). */
export type CredentialKind = 'access-token' | 'api-key' | 'none';

export function credentialKindOf(request: FastifyRequest): CredentialKind {
  if (request.headers.authorization !== undefined) return 'access-token';
  return sentApiKey(request) === undefined ? 'none' : 'api-key';
}

/** The X-API-Key header's value (the first, if sent more than once); undefined when absent or empty. */
function sentApiKey(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  return (Array.isArray(header) ? header[0] : header) || undefined;
}

/**
 * The SHA-256 of the request's API key, computed once a request: the rate limit names the caller's
 * counter by it, then authentication looks the key up by it. Undefined when no key was sent.
 */
export function apiKeyHashOf(request: FastifyRequest): string | undefined {
  if (request.apiKeyHash !== null) return request.apiKeyHash;
  const key = sentApiKey(request);
  if (key === undefined) return undefined;
  request.apiKeyHash = apiKeyHash(key);
  return request.apiKeyHash;
}

export interface AuthOptions {
  ctx: ServiceContext;
  /** The authorization server whose access tokens are accepted (built in src/deps.ts). */
  provider: Provider;
}

/** The caller, synchronously when its credential is already known (a cached API key). */
function principalFor({ ctx, provider }: AuthOptions, auth: RouteAuth, request: FastifyRequest): Principal | Promise<Principal> {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const token = BEARER.exec(authorization)?.[1];
    if (!token) throw new UnauthorizedError('The Authorization header must be "Bearer <access token>"');
    return authenticateAccessToken(ctx, provider, token);
  }
  if (auth.bearerOnly) {
    throw new UnauthorizedError('Missing access token: send a signed-in user\'s token as Authorization: Bearer <token>');
  }
  return authenticateApiKey(ctx, sentApiKey(request), apiKeyHashOf(request));
}

/** What the route asks of the caller beyond being known: first party, scope, role. */
function assertAllowed(auth: RouteAuth, principal: Principal): void {
  // Settings (minting API keys) stay with the first-party dashboard: an application a user let
  // read their job listings must not be able to make itself a key with every scope.
  if (auth.bearerOnly && !principal.firstParty) {
    throw new ForbiddenError("Only the dashboard's own access tokens may manage settings");
  }
  const credential = principal.userId ? 'access token' : 'API key';
  const scope = principal.userId && auth.peopleScope ? auth.peopleScope : auth.scope;
  if (scope && !principal.scopes.includes(scope)) {
    if (principal.role && !scopesOfRole(principal.role).includes(scope)) throw onlyRole('ADMIN');
    throw new ForbiddenError(`This ${credential} lacks the scope ${scope}`, [{ field: 'scope', message: `requires ${scope}` }]);
  }
  if (auth.role && principal.role !== auth.role) throw onlyRole(auth.role);
}

function onlyRole(role: 'ADMIN'): ForbiddenError {
  return new ForbiddenError(`Only a company ${role} may do this`, [{ field: 'role', message: `requires ${role}` }]);
}

/**
 * A callback hook that finishes synchronously when the caller is known without waiting (a cached
 * API key, nearly every request): no promise and no microtask turn on that path.
 */
function authenticate(options: AuthOptions, auth: RouteAuth): onRequestHookHandler {
  const refuse = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    if (request.authFailureRefusal && error instanceof UnauthorizedError) return request.authFailureRefusal();
    reply.header('WWW-Authenticate', challenges(auth, request.headers.authorization !== undefined));
    return error as Error;
  };
  const admit = (request: FastifyRequest, reply: FastifyReply, principal: Principal, done: HookHandlerDoneFunction) => {
    request.principal = principal;
    try {
      assertAllowed(auth, principal);
    } catch (error) {
      return done(error as Error);
    }
    done();
  };
  return (request, reply, done) => {
    let found: Principal | Promise<Principal>;
    try {
      found = principalFor(options, auth, request);
    } catch (error) {
      return done(refuse(request, reply, error));
    }
    if (!(found instanceof Promise)) return admit(request, reply, found, done);
    found.then(
      (principal) => admit(request, reply, principal, done),
      (error: unknown) => done(refuse(request, reply, error)),
    );
  };
}

/**
 * Names under which clients put a credential in the query string (`?api_key=rk_live_...`). A URL
 * is written to proxies' and servers' access logs, browser histories and Referer headers, so such a
 * request is refused (400, naming the header to use) rather than served: the key would otherwise
 * keep working from wherever the URL was copied to. Checked before authentication, so a key sent
 * this way is never looked up either.
 */
const QUERY_CREDENTIAL = /^(?:x[-_]?)?api[-_]?key$|^(?:key|token|auth|authorization|bearer|password|secret)$|(?:access|refresh|id|bearer|auth)[-_]?token$|client[-_]?secret$/i;

function refuseQueryCredentials(auth: RouteAuth): onRequestHookHandler {
  const header = auth.bearerOnly ? 'the Authorization header (Bearer <token>)' : 'the X-API-Key header (or Authorization: Bearer <token>)';
  return (request, _reply, done) => {
    // Most requests have no query string at all: nothing to look at.
    if (!request.url.includes('?')) return done();
    const names = Object.keys(request.query as Record<string, unknown>).filter((name) => QUERY_CREDENTIAL.test(name));
    if (names.length === 0) return done();
    done(
      new DomainError(
        'BAD_REQUEST',
        `Credentials are not accepted in the URL: send them in ${header}, and replace a key that was sent in a URL`,
        names.map((name) => ({ field: name, message: `not accepted in the query string: use ${header}` })),
      ),
    );
  };
}

/**
 * The operation's security requirement: an API key or an oauth2 token holding the scope. The scope
 * is listed on the oauth2 entry only: OpenAPI linters (Spectral's oas3-operation-security-defined)
 * accept scopes only where the scheme declares them (oauth2 flows), so the API key's scope is said in
 * the description and in `x-required-scope`. The openIdConnect scheme stays in components (discovery
 * of the same tokens) and is not repeated per operation (docs/decisions.md).
 */
function securityOf(auth: RouteAuth): Array<Record<string, string[]>> {
  const scopes: string[] = auth.scope ? [auth.scope] : [];
  const bearer: Array<Record<string, string[]>> = [{ [OAUTH_SCHEME]: scopes }];
  return auth.bearerOnly ? bearer : [{ [API_KEY_SCHEME]: [] }, ...bearer];
}

function noteOf(auth: RouteAuth): string {
  const who = auth.bearerOnly
    ? "A signed-in user's access token (`Authorization: Bearer`); API keys are not accepted."
    : auth.scope
      ? `Requires scope \`${auth.scope}\`.`
      : 'Any valid API key.';
  const scopeNote = auth.bearerOnly && auth.scope ? ` Requires scope \`${auth.scope}\`.` : '';
  const peopleNote = auth.peopleScope ? ` A person's access token needs \`${auth.peopleScope}\` instead (a MEMBER may).` : '';
  const roleNote = auth.role ? ` Only a company ${auth.role} may call it (403 otherwise).` : '';
  return `${who}${scopeNote}${peopleNote}${roleNote}`;
}

export function registerAuth(app: FastifyInstance, options: AuthOptions): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('apiKeyHash', null);
  app.decorateRequest('authFailureRefusal', null);
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (!auth) return;
    // A new schema object rather than edits in place: Fastify gives a GET route's HEAD twin the
    // same schema object, and editing it twice would repeat the scope note.
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const note = noteOf(auth);
    route.schema = {
      ...schema,
      security: securityOf(auth),
      ...(auth.scope ? { 'x-required-scope': auth.scope } : {}),
      description: schema.description ? `${schema.description}\n\n${note}` : note,
      response: { ...errorResponses(auth.scope || auth.role || auth.bearerOnly ? [400, 401, 403, 429] : [400, 401, 429]), ...(schema.response as object) },
    };
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [refuseQueryCredentials(auth), authenticate(options, auth), ...existing];
  });
}
