// buildApp: cross-cutting plugins first, then the modules. No listen() here: the server entry
// listens, tests use app.inject(). Every dependency comes built from src/deps.ts (buildDeps).
import { readFileSync } from 'node:fs';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from './deps.ts';
import type { AppInstance } from './http/app-instance.ts';
import { registerMetricsRoute } from './http/metrics.ts';
import { ErrorEnvelope } from './http/error-envelope.ts';
import { clientErrorHandler, expectationFailed, frameworkErrorHandler } from './http/errors.ts';
import { registerHealth } from './http/health.ts';
import {
  accessLogPlugin,
  authFailureLimitPlugin,
  authPlugin,
  conditionalGetPlugin,
  deprecationPlugin,
  drainPlugin,
  errorHandlingPlugin,
  httpsOnlyPlugin,
  idempotencyPlugin,
  jsonBodyPlugin,
  misroutedMethodsPlugin,
  openApiPlugin,
  paginationPlugin,
  rateLimitPlugin,
  requestIdPlugin,
  securityHeadersPlugin,
} from './http/plugins.ts';
import { generateRequestId } from './http/request-id.ts';
import { compileValidatorsLazily, serializersCompiledLazily } from './http/lazy-compilers.ts';
import { buildValidatorCompiler } from './http/validation.ts';
import { referenceDataRoutes, referenceDataSchemas } from './modules/reference-data/routes.ts';
import { jobListingRoutes, listingReviewRoutes } from './modules/job-listings/routes.ts';
import { jobListingSchemas } from './modules/job-listings/schemas.ts';
import { candidateRoutes, candidateSchemas } from './modules/candidates/routes.ts';
import { applicationRoutes, applicationSchemas, candidateProfileRoutes, candidateProfileSchemas } from './modules/applications/routes.ts';
import { analyticsRoutes, analyticsSchemas } from './modules/analytics/routes.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import { eventRoutes, eventSchemas } from './modules/events/routes.ts';
import { privacyRoutes, privacySchemas } from './modules/privacy/routes.ts';
import { noteRoutes, noteSchemas } from './modules/notes/routes.ts';
import { activityRoutes, activitySchemas } from './modules/activity/routes.ts';
import { documentRoutes, documentSchemas } from './modules/documents/routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { auditSchemas } from './modules/audit/schemas.ts';
import { boardRoutes } from './modules/boards/routes.ts';
import { boardSchemas } from './modules/boards/schemas.ts';
import { webhookEventsOpenApi, webhookSchemas } from './modules/webhooks/schemas.ts';
import { webhookBacklog } from './modules/webhooks/service.ts';
import { apiKeyRoutes } from './modules/api-keys/routes.ts';
import { apiKeySchemas } from './modules/api-keys/schemas.ts';
import { oauthRoutes } from './modules/oauth/routes.ts';
import { socialRoutes } from './modules/social/routes.ts';
import { memberRoutes } from './modules/users/routes.ts';
import { memberSchemas } from './modules/users/schemas.ts';
import { companyRoutes, rejectionReasonRoutes } from './modules/companies/routes.ts';
import { companySchemas } from './modules/companies/schemas.ts';
import { registerDashboard } from './http/dashboard.ts';
import { careersRoutes } from './modules/careers/routes.ts';
import { sampleDataRoutes } from './modules/sample-data/routes.ts';
import { sampleDataSchemas } from './modules/sample-data/schemas.ts';

const BODY_LIMIT_BYTES = 1024 * 1024;

/** Schemas referenced by $ref from routes; each becomes a named OpenAPI component. */
const SHARED_SCHEMAS = [
  ErrorEnvelope,
  ...referenceDataSchemas,
  ...jobListingSchemas,
  ...candidateSchemas,
  ...candidateProfileSchemas,
  ...documentSchemas,
  ...eventSchemas,
  ...privacySchemas,
  ...applicationSchemas,
  ...analyticsSchemas,
  ...webhookSchemas,
  ...apiKeySchemas,
  ...memberSchemas,
  ...companySchemas,
  ...noteSchemas,
  ...activitySchemas,
  ...auditSchemas,
  ...boardSchemas,
  ...sampleDataSchemas,
];

export async function buildApp(deps: Deps): Promise<AppInstance> {
  const { config } = deps;
  // Node checks request and header deadlines on this interval (30 s by default): a fraction of the
  // timeout keeps the cut-off close to it.
  const socketOptions = {
    requestTimeout: config.requestTimeoutMs,
    headersTimeout: config.requestTimeoutMs,
    connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(config.requestTimeoutMs / 4))),
  };
  const app = Fastify({
    https: config.tls
      ? { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile), ...socketOptions }
      : null,
    // Fastify's https overload does not declare `http` (it is used only without TLS).
    ...({ http: socketOptions } as object),
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    maxRequestsPerSocket: config.maxRequestsPerSocket,
    clientErrorHandler,
    // Typed as Fastify's base logger so the app keeps the one AppInstance type (a pino Logger is one).
    loggerInstance: deps.log as FastifyBaseLogger,
    // One access line per request instead (access-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: generateRequestId,
    frameworkErrors: frameworkErrorHandler,
    bodyLimit: BODY_LIMIT_BYTES,
    // X-Forwarded-* (the real scheme and client behind a TLS-terminating proxy) is believed only
    // from the configured proxies: from anyone else it would let a client choose its own address
    // (dodging per-address limits) or claim HTTPS.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // While closing, requests are answered in the envelope by the drain plugin (http/drain.ts).
    return503OnClosing: false,
    schemaController: { compilersFactory: { buildSerializer: serializersCompiledLazily() } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.server.on('checkExpectation', expectationFailed);
  // A response sent before the body was read (401, 413, 415...): close the connection rather than
  // keep reading whatever the client still uploads.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.raw.complete) reply.header('connection', 'close');
    done(null, payload);
  });

  const { ctx } = deps;
  // The authorization server under /oauth2 and its sign-in pages; authentication accepts its tokens.
  const identity = await deps.identity();
  app.decorate('deps', deps);
  app.decorate('ctx', ctx);
  const { metrics } = deps;
  metrics.setSources({ pool: deps.database.poolStats, backlog: () => webhookBacklog(ctx) });

  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  app.setValidatorCompiler(compileValidatorsLazily(buildValidatorCompiler(SHARED_SCHEMAS)));
  // Named plugins: each declares the plugins it must follow, and Fastify refuses a wrong order
  // (src/http/plugins.ts says why each order matters).
  await app.register(requestIdPlugin);
  await app.register(accessLogPlugin, { metrics });
  await app.register(drainPlugin);
  await app.register(securityHeadersPlugin, { https: deps.config.mode === 'production' || Boolean(deps.config.tls) });
  await app.register(jsonBodyPlugin);
  await app.register(errorHandlingPlugin);
  await app.register(deprecationPlugin);
  await app.register(conditionalGetPlugin);
  await app.register(paginationPlugin);
  if (deps.config.mode === 'production') await app.register(httpsOnlyPlugin);
  await app.register(authPlugin, { ctx, provider: identity.provider });
  await app.register(misroutedMethodsPlugin);
  await app.register(rateLimitPlugin, { store: deps.rateLimitStore, limitPerMinute: config.rateLimitPerMinute, clock: deps.clock });
  await app.register(authFailureLimitPlugin, { store: deps.rateLimitStore, failuresPerMinute: config.authFailuresPerMinute, clock: deps.clock });
  await app.register(idempotencyPlugin, { ctx, fence: deps.idempotencyFence, leaseMs: config.idempotencyLeaseSeconds * 1000 });
  await app.register(openApiPlugin, { config: deps.config, events: webhookEventsOpenApi() });
  registerHealth(app, deps.database);
  if (deps.config.metricsPort === undefined) registerMetricsRoute(app, metrics, deps.config.metricsToken);

  await app.register(referenceDataRoutes);
  await app.register(jobListingRoutes);
  await app.register(candidateRoutes);
  await app.register(candidateProfileRoutes);
  await app.register(applicationRoutes);
  await app.register(rejectionReasonRoutes);
  await app.register(analyticsRoutes);
  await app.register(webhookRoutes);
  await app.register(eventRoutes);
  await app.register(privacyRoutes);
  await app.register(noteRoutes);
  await app.register(activityRoutes);
  await app.register(documentRoutes);
  await app.register(boardRoutes);
  await app.register(apiKeyRoutes);

  await app.register(oauthRoutes, { identity, config: deps.config });
  // Google, LinkedIn, Facebook: a button each on the sign-in page when configured.
  await app.register(socialRoutes, { provider: identity.provider, connectors: deps.socialConnectors, config: deps.config });
  await app.register(memberRoutes);
  await app.register(auditRoutes);
  await app.register(companyRoutes);
  await app.register(sampleDataRoutes);
  await app.register(listingReviewRoutes);
  // The hosted careers pages (HTML for candidates and search engines) over the boards service.
  await app.register(careersRoutes);
  // The company dashboard (static files built from dashboard/) at /dashboard; / leads there.
  await registerDashboard(app);

  return app;
}
