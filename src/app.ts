// buildApp: cross-cutting plugins first, then the modules. No listen() here: the server entry
// listens, tests use app.inject().
import { readFileSync } from 'node:fs';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type RawReplyDefaultExpression, type RawRequestDefaultExpression, type RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { Clock } from './shared/clock.ts';
import type { ServiceContext } from './shared/context.ts';
import type { SecretBox } from './shared/secret-box.ts';
import { createMetrics, type Metrics } from './shared/metrics.ts';
import { createLogger } from './shared/logger.ts';
import { registerAccessLog } from './http/access-log.ts';
import { registerMetricsRoute } from './http/metrics.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerAuth } from './http/auth.ts';
import { ErrorEnvelope } from './http/error-envelope.ts';
import { frameworkErrorHandler, registerErrorHandling } from './http/errors.ts';
import { registerHealth } from './http/health.ts';
import { registerJsonBody } from './http/json-body.ts';
import { registerHttpsOnly } from './http/https.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { MemoryRateLimitStore, RedisRateLimitStore } from './http/rate-limit-store.ts';
import { generateRequestId, registerRequestId } from './http/request-id.ts';
import { buildValidatorCompiler } from './http/validation.ts';
import { referenceDataRoutes, referenceDataSchemas } from './modules/reference-data/routes.ts';
import { jobListingRoutes } from './modules/job-listings/routes.ts';
import { jobListingSchemas } from './modules/job-listings/schemas.ts';
import { candidateRoutes, candidateSchemas } from './modules/candidates/routes.ts';
import { applicationRoutes, applicationSchemas } from './modules/applications/routes.ts';
import { analyticsRoutes, analyticsSchemas } from './modules/analytics/routes.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import { webhookSchemas } from './modules/webhooks/schemas.ts';
import { webhookBacklog } from './modules/webhooks/service.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  secrets: SecretBox;
  /** The process's metrics (default: a registry of this app's own). */
  metrics?: Metrics;
  /** The process's logger (default: stdout, pretty on a terminal). */
  logger?: FastifyBaseLogger;
}

export type AppInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    ctx: ServiceContext;
  }
}

const BODY_LIMIT_BYTES = 1024 * 1024;

/** Schemas referenced by $ref from routes; each becomes a named OpenAPI component. */
const SHARED_SCHEMAS = [
  ErrorEnvelope,
  ...referenceDataSchemas,
  ...jobListingSchemas,
  ...candidateSchemas,
  ...applicationSchemas,
  ...analyticsSchemas,
  ...webhookSchemas,
];

export async function buildApp(deps: AppDeps): Promise<AppInstance> {
  const app = Fastify({
    https: deps.config.tls
      ? { cert: readFileSync(deps.config.tls.certFile), key: readFileSync(deps.config.tls.keyFile) }
      : null,
    loggerInstance: deps.logger ?? createLogger(deps.config, 'api'),
    // One access line per request instead (access-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: generateRequestId,
    frameworkErrors: frameworkErrorHandler,
    bodyLimit: BODY_LIMIT_BYTES,
    // Behind a TLS-terminating proxy X-Forwarded-* tells the real scheme and client.
    trustProxy: deps.config.mode === 'production',
  }).withTypeProvider<TypeBoxTypeProvider>();

  const ctx: ServiceContext = { db: deps.database.db, clock: deps.clock, secrets: deps.secrets };
  app.decorate('deps', deps);
  app.decorate('ctx', ctx);
  const metrics = deps.metrics ?? createMetrics({ process: 'api' });
  metrics.setSources({ pool: deps.database.poolStats, backlog: () => webhookBacklog(ctx) });

  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  app.setValidatorCompiler(buildValidatorCompiler(SHARED_SCHEMAS));
  registerRequestId(app);
  registerAccessLog(app, metrics);
  await registerSecurityHeaders(app, { https: deps.config.mode === 'production' || Boolean(deps.config.tls) });
  registerJsonBody(app);
  registerErrorHandling(app);
  if (deps.config.mode === 'production') registerHttpsOnly(app);
  registerAuth(app, ctx);
  const rateLimitStore = deps.config.redisUrl
    ? new RedisRateLimitStore(deps.config.redisUrl)
    : new MemoryRateLimitStore();
  app.addHook('onClose', async () => rateLimitStore.close());
  // After registerAuth: its onRoute hook must run first so the limit check ends up ahead of it.
  registerRateLimit(app, { store: rateLimitStore, limitPerMinute: deps.config.rateLimitPerMinute, clock: deps.clock });
  registerIdempotency(app, ctx);
  await registerOpenApi(app, deps.config);
  registerHealth(app, deps.database);
  if (deps.config.metricsPort === undefined) registerMetricsRoute(app, metrics, deps.config.metricsToken);

  await app.register(referenceDataRoutes);
  await app.register(jobListingRoutes);
  await app.register(candidateRoutes);
  await app.register(applicationRoutes);
  await app.register(analyticsRoutes);
  await app.register(webhookRoutes);

  return app;
}
