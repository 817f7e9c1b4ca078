// Authentication and scope checks, declared per route as `config: { auth: { scope } }`.
// An onRoute hook turns that declaration into the onRequest check, the OpenAPI security entry and
// the documented error responses, so the three can never disagree.
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ForbiddenError } from '../shared/errors.ts';
import type { Principal, ServiceContext } from '../shared/context.ts';
import { authenticateApiKey } from '../modules/api-keys/service.ts';
import type { Scope } from '../modules/api-keys/scopes.ts';
import { errorResponses } from './error-envelope.ts';

export interface RouteAuth {
  /** The scope the key must hold; null: any valid key (reference data). */
  scope: Scope | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export const API_KEY_SCHEME = 'ApiKeyAuth';

/** The caller of an authenticated route; throws if used on a route without auth. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`route ${request.routeOptions.url} has no auth config`);
  return request.principal;
}

function authenticate(ctx: ServiceContext, auth: RouteAuth): onRequestHookHandler {
  return async (request, reply) => {
    const header = request.headers['x-api-key'];
    try {
      request.principal = await authenticateApiKey(ctx, Array.isArray(header) ? header[0] : header);
    } catch (error) {
      reply.header('WWW-Authenticate', 'ApiKey realm="public", header="X-API-Key"');
      throw error;
    }
    if (auth.scope && !request.principal.scopes.includes(auth.scope)) {
      throw new ForbiddenError(`This API key lacks the scope ${auth.scope}`, [
        { field: 'scope', message: `requires ${auth.scope}` },
      ]);
    }
  };
}

export function registerAuth(app: FastifyInstance, ctx: ServiceContext): void {
  app.decorateRequest('principal', null);
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (!auth) return;
    // A new schema object rather than edits in place: Fastify gives a GET route's HEAD twin the
    // same schema object, and editing it twice would repeat the scope note.
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const scopeNote = auth.scope ? `Requires scope \`${auth.scope}\`.` : 'Any valid API key.';
    route.schema = {
      ...schema,
      security: [{ [API_KEY_SCHEME]: auth.scope ? [auth.scope] : [] }],
      description: schema.description ? `${schema.description}\n\n${scopeNote}` : scopeNote,
      response: { ...errorResponses(auth.scope ? [401, 403, 429] : [401, 429]), ...(schema.response as object) },
    };
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [authenticate(ctx, auth), ...existing];
  });
}
