// Rate limit per API key (per client address for calls without one) on the public API.
// Headers follow the IETF RateLimit header fields draft: RateLimit-Policy on every response,
// RateLimit with what remains; over the limit 429 TOO_MANY_REQUESTS with Retry-After.
//
// Failed authentications are limited per client address and kind of credential (API key, access
// token, none) as well: every made-up key has a bucket of its own above, so without this a client
// could try keys forever. Past the limit a call without a credential gets 429 at once; a call with
// one is still checked (an API key's checksum first, so a made-up key costs no lookup) and gets 429
// instead of 401 only when the check fails: a valid key or token is never refused for the failures
// of others behind the same address (an office's NAT), and a dashboard's tokens are not counted
// with a careless integration's keys. The client address is the socket's unless TRUST_PROXY names
// the proxy in front.
import type { FastifyInstance, FastifyReply, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import type { Clock } from '../shared/clock.ts';
import { DomainError } from '../shared/errors.ts';
import { apiKeyHashOf, credentialKindOf, type CredentialKind } from './auth.ts';
import type { RateLimitStore, WindowCount } from './rate-limit-store.ts';

const WINDOW_MS = 60_000;

const KIND_NAMES: Record<CredentialKind, string> = {
  'api-key': 'with API keys',
  'access-token': 'with access tokens',
  none: 'without a credential',
};

/** Limits 401 answers per client address and credential kind; registered after registerRateLimit so it runs first. */
export function registerAuthFailureLimit(
  app: FastifyInstance,
  options: { store: RateLimitStore; failuresPerMinute: number; clock: Clock },
): void {
  const { store, failuresPerMinute, clock } = options;
  const counter = (kind: CredentialKind, ip: string) => `authfail:${kind}:${ip}`;

  const refusal = (reply: FastifyReply, kind: CredentialKind, window: WindowCount): Error => {
    reply.header('Retry-After', String(Math.ceil(window.resetMs / 1000)));
    return new DomainError('TOO_MANY_REQUESTS', `Too many failed authentications ${KIND_NAMES[kind]} from this address; try again later`);
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.auth) return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [
      (request, reply, done) => {
        const kind = credentialKindOf(request);
        withWindow(store.peek(counter(kind, request.ip), WINDOW_MS, clock.now().getTime()), (window) => {
          if (window.count < failuresPerMinute) return done();
          if (kind === 'none') return done(refusal(reply, kind, window));
          // Authentication answers with this instead of 401 if the credential fails.
          request.authFailureRefusal = () => refusal(reply, kind, window);
          done();
        }, done);
      },
      ...existing,
    ];
    const onResponse = route.onResponse ? [route.onResponse].flat() : [];
    route.onResponse = [
      ...onResponse,
      // A callback hook: it runs after every response, and only a 401 has anything to wait for.
      (request, reply, done) => {
        if (reply.statusCode !== 401) return done();
        const failed = store.hit(counter(credentialKindOf(request), request.ip), WINDOW_MS, clock.now().getTime());
        withWindow(failed, () => done(), () => done());
      },
    ];
  });
}

/**
 * Calls `then` with the caller's window, synchronously when the store answers synchronously (in
 * memory, or Redis's store while it counts in this process: no promise on every request). The store
 * does not fail for want of Redis (it counts here then), so an error is a fault and answers as one.
 */
function withWindow(window: WindowCount | Promise<WindowCount>, then: (window: WindowCount) => void, fail: HookHandlerDoneFunction): void {
  if (!(window instanceof Promise)) return then(window);
  window.then(then, (error: unknown) => fail(error as Error));
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

  const check: onRequestHookHandler = (request, reply, done) => {
    // Only a hash of the key is kept as the counter name: no secret in Redis.
    const keyHash = apiKeyHashOf(request);
    const caller = keyHash ? `key:${keyHash.slice(0, 32)}` : `ip:${request.ip}`;
    withWindow(store.hit(caller, WINDOW_MS, clock.now().getTime()), (window) => done(limit(reply, window)), done);
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.auth) return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    // First in line: a flood of bad keys is limited before any database lookup.
    route.onRequest = [check, ...existing];
  });
  // A request no route takes (404, or 405 on a known path) is counted and answered with the same
  // headers: they are on every response, and probing unknown paths is not free of the limit.
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) return done();
    check.call(app, request, reply, done);
  });
}

/**
 * A route's own limit per client address (the job board's applications: no key to count by), on
 * top of any other: `perWindow` requests per `windowMs` under the counter name `name`. Over it:
 * 429 TOO_MANY_REQUESTS in the envelope, with Retry-After. Used as the route's onRequest hook.
 */
export function perAddressLimit(options: { store: RateLimitStore; clock: Clock; name: string; perWindow: number; windowMs: number }): onRequestHookHandler {
  const { store, clock, name, perWindow, windowMs } = options;
  return (request, reply, done) => {
    withWindow(
      store.hit(`${name}:${request.ip}`, windowMs, clock.now().getTime()),
      (window) => {
        if (window.count <= perWindow) return done();
        reply.header('Retry-After', String(Math.ceil(window.resetMs / 1000)));
        done(new DomainError('TOO_MANY_REQUESTS', `Too many applications from this address; try again in ${Math.ceil(window.resetMs / 60_000)} minutes`));
      },
      done,
    );
  };
}
