// Rate limit per API key (per client address for calls without one) on the public API.
// Headers follow the IETF RateLimit header fields draft: RateLimit-Policy on every response,
// RateLimit with what remains; over the limit 429 TOO_MANY_REQUESTS with Retry-After.
//
// Failed authentications are limited per client address as well: every made-up key has a bucket
// of its own above, so without this a client could try keys forever, each costing a database
// lookup. Past the limit an address gets 429 before any lookup, whatever key it sends, until the
// window ends. The client address is the socket's unless TRUST_PROXY names the proxy in front.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../shared/clock.ts';
import { DomainError } from '../shared/errors.ts';
import { apiKeyHashOf } from './auth.ts';
import { RateLimitStoreUnavailableError, type RateLimitStore, type WindowCount } from './rate-limit-store.ts';

const WINDOW_MS = 60_000;

/** Limits 401 answers per client address; registered after registerRateLimit so it runs first. */
export function registerAuthFailureLimit(
  app: FastifyInstance,
  options: { store: RateLimitStore; failuresPerMinute: number; clock: Clock },
): void {
  const { store, failuresPerMinute, clock } = options;
  const counter = (ip: string) => `authfail:${ip}`;

  const check = (reply: FastifyReply, window: WindowCount): Error | undefined => {
    if (window.count < failuresPerMinute) return undefined;
    reply.header('Retry-After', String(Math.ceil(window.resetMs / 1000)));
    return new DomainError('TOO_MANY_REQUESTS', 'Too many failed authentications from this address; try again later');
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.auth) return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [
      (request, reply, done) =>
        withWindow(request, () => store.peek(counter(request.ip), WINDOW_MS, clock.now().getTime()), (window) => done(window && check(reply, window))),
      ...existing,
    ];
    const onResponse = route.onResponse ? [route.onResponse].flat() : [];
    route.onResponse = [
      ...onResponse,
      // A callback hook: it runs after every response, and only a 401 has anything to wait for.
      (request, reply, done) => {
        if (reply.statusCode !== 401) return done();
        withWindow(request, () => store.hit(counter(request.ip), WINDOW_MS, clock.now().getTime()), () => done());
      },
    ];
  });
}

/**
 * Calls `then` with the caller's window, synchronously when the store answers synchronously (in
 * memory: no promise on every request), or with undefined when the store failed: a rate-limit store
 * outage must not take the API down with it.
 */
function withWindow(request: FastifyRequest, read: () => WindowCount | Promise<WindowCount>, then: (window: WindowCount | undefined) => void): void {
  let window: WindowCount | Promise<WindowCount>;
  try {
    window = read();
  } catch (error) {
    logStoreFailure(request, error);
    return then(undefined);
  }
  if (!(window instanceof Promise)) return then(window);
  window.then(then, (error: unknown) => {
    logStoreFailure(request, error);
    then(undefined);
  });
}

function logStoreFailure(request: FastifyRequest, error: unknown): void {
  // While the breaker is open every request would say the same: log only the failure itself.
  if (error instanceof RateLimitStoreUnavailableError) return;
  request.log.warn({ err: error }, 'rate limit store unavailable; request allowed');
}

export function registerRateLimit(
  app: FastifyInstance,
  options: { store: RateLimitStore; limitPerMinute: number; clock: Clock },
): void {
  const { store, limitPerMinute, clock } = options;
  const policy = `"per-key";q=${limitPerMinute};w=${WINDOW_MS / 1000}`;
  const limit = (reply: FastifyReply, window: WindowCount): Error | undefined => {
    const resetSeconds = Math.ceil(window.resetMs / 1000);
    reply.header('RateLimit-Policy', policy);
    reply.header('RateLimit', `"per-key";r=${Math.max(0, limitPerMinute - window.count)};t=${resetSeconds}`);
    if (window.count <= limitPerMinute) return undefined;
    reply.header('Retry-After', String(resetSeconds));
    return new DomainError('TOO_MANY_REQUESTS', `Rate limit of ${limitPerMinute} requests a minute exceeded`);
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.auth) return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    // First in line: a flood of bad keys is limited before any database lookup.
    route.onRequest = [
      (request, reply, done) => {
        // Only a hash of the key is kept as the counter name: no secret in Redis.
        const keyHash = apiKeyHashOf(request);
        const caller = keyHash ? `key:${keyHash.slice(0, 32)}` : `ip:${request.ip}`;
        withWindow(request, () => store.hit(caller, WINDOW_MS, clock.now().getTime()), (window) => done(window && limit(reply, window)));
      },
      ...existing,
    ];
  });
}
