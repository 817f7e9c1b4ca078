// The cross-cutting HTTP behaviour as named Fastify plugins (fastify-plugin, so their hooks apply to
// the whole app). Each names the plugins it must come after in `dependencies` (and the request
// decorations it reads in `decorators`): Fastify refuses to register one before what it depends on
// (FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED), so the order no longer rests on a comment in app.ts.
//
// Why the order matters: the auth, rate-limit and failure-limit plugins each prepend their check to
// a route's onRequest hooks as the route is added, so the one registered last runs first: the
// failure limit (per address and kind of credential), then the per-key limit, then authentication.
// Idempotency reads the principal that authentication sets. OpenAPI documents what the others add
// to each route (security, the Idempotency-Key header, error answers). The rest (request id, access
// log, security headers, JSON body, error handling, HTTPS only) depend on no order among themselves.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../shared/clock.ts';
import type { ServiceContext } from '../shared/context.ts';
import type { Metrics } from '../shared/metrics.ts';
import { registerAccessLog } from './access-log.ts';
import { registerAuth, type AuthOptions } from './auth.ts';
import { registerConditionalGet } from './conditional-get.ts';
import { registerDeprecation } from './deprecation.ts';
import { registerDrain } from './drain.ts';
import { registerErrorHandling } from './errors.ts';
import { registerHttpsOnly } from './https.ts';
import { registerIdempotency, type IdempotencyFence } from './idempotency.ts';
import { registerJsonBody } from './json-body.ts';
import { registerOpenApi } from './openapi.ts';
import { registerPagination } from './pagination.ts';
import { registerAuthFailureLimit, registerRateLimit } from './rate-limit.ts';
import type { RateLimitStore } from './rate-limit-store.ts';
import { registerRequestId } from './request-id.ts';
import { registerMisroutedMethods, registerRequestShape } from './request-shape.ts';
import { registerSecurityHeaders } from './security-headers.ts';

const FASTIFY = '5.x';

export const requestIdPlugin = fp(async (app: FastifyInstance) => registerRequestId(app), { name: 'request-id', fastify: FASTIFY });

export const accessLogPlugin = fp(async (app: FastifyInstance, options: { metrics: Metrics }) => registerAccessLog(app, options.metrics), {
  name: 'access-log',
  fastify: FASTIFY,
});

// After the request id: a request answered while shutting down carries its X-Request-Id too.
export const drainPlugin = fp(async (app: FastifyInstance) => registerDrain(app), {
  name: 'drain',
  fastify: FASTIFY,
  dependencies: ['request-id'],
});

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: { https: boolean }) => registerSecurityHeaders(app, options),
  { name: 'security-headers', fastify: FASTIFY },
);

export const jsonBodyPlugin = fp(async (app: FastifyInstance) => registerJsonBody(app), { name: 'json-body', fastify: FASTIFY });

export const errorHandlingPlugin = fp(
  async (app: FastifyInstance) => {
    // The request shape first: its onRoute hook tightens the query schema before the error
    // handling's onRoute hook documents the 422 that adds; its notFound answers 405 on a known path.
    const requestShape = registerRequestShape(app);
    registerErrorHandling(app, { notFound: requestShape.notFound });
  },
  { name: 'error-handling', fastify: FASTIFY },
);

export const conditionalGetPlugin = fp(async (app: FastifyInstance) => registerConditionalGet(app), {
  name: 'conditional-get',
  fastify: FASTIFY,
});

export const deprecationPlugin = fp(async (app: FastifyInstance) => registerDeprecation(app), { name: 'deprecation', fastify: FASTIFY });

export const paginationPlugin = fp(async (app: FastifyInstance) => registerPagination(app), {
  name: 'pagination',
  fastify: FASTIFY,
  // Its refusal (cursor with page) is answered by the error handling.
  dependencies: ['error-handling'],
});

export const httpsOnlyPlugin = fp(async (app: FastifyInstance) => registerHttpsOnly(app), { name: 'https-only', fastify: FASTIFY });

export const authPlugin = fp(async (app: FastifyInstance, options: AuthOptions) => registerAuth(app, options), {
  name: 'auth',
  fastify: FASTIFY,
});

// Between authentication and the rate limit, so its 405 runs after the limit and before authentication.
export const misroutedMethodsPlugin = fp(async (app: FastifyInstance) => registerMisroutedMethods(app), {
  name: 'misrouted-methods',
  fastify: FASTIFY,
  dependencies: ['error-handling', 'auth'],
  decorators: { fastify: ['knownPaths'] },
});

interface LimitOptions {
  store: RateLimitStore;
  clock: Clock;
}

export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: LimitOptions & { limitPerMinute: number }) => registerRateLimit(app, options),
  {
    name: 'rate-limit',
    fastify: FASTIFY,
    // After auth, so its check runs ahead of authentication (see above), and after the 405 check
    // on templates, so a 405 there counts and carries the limit's headers.
    dependencies: ['auth', 'misrouted-methods'],
  },
);

export const authFailureLimitPlugin = fp(
  async (app: FastifyInstance, options: LimitOptions & { failuresPerMinute: number }) => registerAuthFailureLimit(app, options),
  {
    name: 'auth-failure-limit',
    fastify: FASTIFY,
    // After the per-key limit, so it runs first of all.
    dependencies: ['auth', 'rate-limit'],
    // Authentication answers a failing credential with the refusal it leaves there.
    decorators: { request: ['authFailureRefusal'] },
  },
);

export const idempotencyPlugin = fp(
  async (app: FastifyInstance, options: { ctx: ServiceContext; fence: IdempotencyFence; leaseMs: number }) =>
    registerIdempotency(app, options.ctx, { fence: options.fence, leaseMs: options.leaseMs }),
  {
    name: 'idempotency',
    fastify: FASTIFY,
    // Keys belong to the authenticated company.
    dependencies: ['auth'],
    decorators: { request: ['principal'] },
  },
);

export const openApiPlugin = fp(
  async (app: FastifyInstance, options: { config: Config; events: { webhooks: Record<string, unknown>; schemas: Record<string, unknown> } }) =>
    registerOpenApi(app, options.config, options.events),
  {
    name: 'openapi',
    fastify: FASTIFY,
    // The document shows what these add to every route (security, headers, error answers).
    dependencies: ['error-handling', 'auth', 'rate-limit', 'auth-failure-limit', 'idempotency', 'deprecation', 'conditional-get'],
  },
);
