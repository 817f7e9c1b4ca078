// The cross-cutting plugins declare what they must follow (src/http/plugins.ts): Fastify itself
// refuses a wrong order, so it cannot drift silently.
import Fastify from 'fastify';
import type Provider from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { authFailureLimitPlugin, authPlugin, errorHandlingPlugin, idempotencyPlugin, misroutedMethodsPlugin, rateLimitPlugin } from '../../src/http/plugins.ts';
import { IdempotencyFence } from '../../src/http/idempotency.ts';
import { MemoryRateLimitStore } from '../../src/http/rate-limit-store.ts';
import { systemClock } from '../../src/shared/clock.ts';
import type { ServiceContext } from '../../src/shared/context.ts';

// Registration never touches the services: a context with nothing behind it is enough here.
const ctx = {} as ServiceContext;
const auth = { ctx, provider: {} as Provider };
const idempotency = { ctx, fence: new IdempotencyFence(systemClock), leaseMs: 60_000 };
const limits = { store: new MemoryRateLimitStore(), clock: systemClock };

describe('cross-cutting plugin order', () => {
  it('refuses the rate limit before authentication', async () => {
    const app = Fastify();
    app.register(rateLimitPlugin, { ...limits, limitPerMinute: 10 });
    app.register(authPlugin, auth);
    await expect(app.ready()).rejects.toMatchObject({ code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED', message: expect.stringMatching(/'auth'.*'rate-limit'/) });
  });

  it('refuses the failure limit before the per-key limit', async () => {
    const app = Fastify();
    app.register(authPlugin, auth);
    app.register(authFailureLimitPlugin, { ...limits, failuresPerMinute: 10 });
    app.register(rateLimitPlugin, { ...limits, limitPerMinute: 10 });
    await expect(app.ready()).rejects.toMatchObject({ code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED' });
  });

  it('refuses idempotency before authentication (the principal it reads is not there yet)', async () => {
    const app = Fastify();
    app.register(idempotencyPlugin, idempotency);
    app.register(authPlugin, auth);
    await expect(app.ready()).rejects.toMatchObject({ code: 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE', message: expect.stringContaining("'principal'") });
  });

  it('accepts the order buildApp uses', async () => {
    const app = Fastify();
    app.register(errorHandlingPlugin);
    app.register(authPlugin, auth);
    app.register(misroutedMethodsPlugin);
    app.register(rateLimitPlugin, { ...limits, limitPerMinute: 10 });
    app.register(authFailureLimitPlugin, { ...limits, failuresPerMinute: 10 });
    app.register(idempotencyPlugin, idempotency);
    await expect(app.ready()).resolves.toBeDefined();
    await app.close();
  });
});
