// Rate limit per API key (per client address for calls without one) on the public API.
// Headers follow the IETF RateLimit header fields draft: RateLimit-Policy on every response,
// RateLimit with what remains; over the limit 429 TOO_MANY_REQUESTS with Retry-After.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../shared/clock.ts';
import { DomainError } from '../shared/errors.ts';
import type { RateLimitStore } from './rate-limit-store.ts';

const WINDOW_MS = 60_000;

export function registerRateLimit(
  app: FastifyInstance,
  options: { store: RateLimitStore; limitPerMinute: number; clock: Clock },
): void {
  const { store, limitPerMinute, clock } = options;
  const policy = `"per-key";q=${limitPerMinute};w=${WINDOW_MS / 1000}`;

  app.addHook('onRoute', (route) => {
    if (!route.config?.auth) return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    // First in line: a flood of bad keys is limited before any database lookup.
    route.onRequest = [
      async (request, reply) => {
        const key = request.headers['x-api-key'];
        // Only a hash of the key is kept as the counter name: no secret in Redis.
        const caller =
          typeof key === 'string' && key.length > 0
            ? `key:${createHash('sha256').update(key).digest('hex').slice(0, 32)}`
            : `ip:${request.ip}`;
        let window;
        try {
          window = await store.hit(caller, WINDOW_MS, clock.now().getTime());
        } catch (error) {
          // A rate-limit store outage must not take the API down with it.
          request.log.warn({ err: error }, 'rate limit store unavailable; request allowed');
          return;
        }
        const resetSeconds = Math.ceil(window.resetMs / 1000);
        reply.header('RateLimit-Policy', policy);
        reply.header('RateLimit', `"per-key";r=${Math.max(0, limitPerMinute - window.count)};t=${resetSeconds}`);
        if (window.count > limitPerMinute) {
          reply.header('Retry-After', String(resetSeconds));
          throw new DomainError('TOO_MANY_REQUESTS', `Rate limit of ${limitPerMinute} requests a minute exceeded`);
        }
      },
      ...existing,
    ];
  });
}
