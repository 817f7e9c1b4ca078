// buildApp: cross-cutting plugins first, then the modules. No listen() here: the server entry
// listens, tests use app.inject().
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawReplyDefaultExpression, type RawRequestDefaultExpression, type RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { Clock } from './shared/clock.ts';
import type { ServiceContext } from './shared/context.ts';
import { registerAuth } from './http/auth.ts';
import { ErrorEnvelope } from './http/error-envelope.ts';
import { registerErrorHandling } from './http/errors.ts';
import { registerHealth } from './http/health.ts';
import { registerJsonBody } from './http/json-body.ts';
import { registerOpenApi } from './http/openapi.ts';
import { generateRequestId, registerRequestId } from './http/request-id.ts';
import { buildValidatorCompiler } from './http/validation.ts';
import { referenceDataRoutes, referenceDataSchemas } from './modules/reference-data/routes.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import { webhookSchemas } from './modules/webhooks/schemas.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
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
const SHARED_SCHEMAS = [ErrorEnvelope, ...referenceDataSchemas, ...webhookSchemas];

export async function buildApp(deps: AppDeps): Promise<AppInstance> {
  const app = Fastify({
    logger: {
      level: deps.config.logLevel,
      redact: { paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    },
    genReqId: generateRequestId,
    bodyLimit: BODY_LIMIT_BYTES,
    // Behind a TLS-terminating proxy X-Forwarded-* tells the real scheme and client.
    trustProxy: deps.config.mode === 'production',
  }).withTypeProvider<TypeBoxTypeProvider>();

  const ctx: ServiceContext = { db: deps.database.db, clock: deps.clock };
  app.decorate('deps', deps);
  app.decorate('ctx', ctx);

  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  app.setValidatorCompiler(buildValidatorCompiler(SHARED_SCHEMAS));
  registerRequestId(app);
  registerJsonBody(app);
  registerErrorHandling(app);
  registerAuth(app, ctx);
  await registerOpenApi(app, deps.config);
  registerHealth(app, deps.database);

  await app.register(referenceDataRoutes);
  await app.register(webhookRoutes);

  return app;
}
