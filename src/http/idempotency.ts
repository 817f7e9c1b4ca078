// Idempotency-Key on every authenticated POST: a retried request (same key, same body) gets the
// first answer again, with Idempotent-Replayed: true, for 24 hours. The same key with another
// body is a client bug: 422. While the first request still runs: 409. Server faults (5xx) are
// not kept, so the client's retry really runs again.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../shared/context.ts';
import { ConflictError, ValidationError } from '../shared/errors.ts';
import { errorResponses } from './error-envelope.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  deleteIdempotencyKeyIfOlder,
  findIdempotencyKey,
  releaseIdempotencyKey,
} from '../infra/idempotency/repo.ts';
import { IDEMPOTENCY_WINDOW_MS } from '../infra/idempotency/expiry.ts';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: { companyId: string; key: string } | null;
  }
}

function fingerprint(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${request.body === undefined ? '' : JSON.stringify(request.body)}`)
    .digest('hex');
}

export function registerIdempotency(app: FastifyInstance, ctx: ServiceContext): void {
  app.decorateRequest('idempotencyClaim', null);

  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!route.config?.auth || !methods.includes('POST')) return;
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    // New objects rather than edits in place: routes share header schemas (Accept-Language), and a
    // GET sharing this one must not document an Idempotency-Key it ignores.
    const headers = (schema.headers ?? { type: 'object', properties: {} }) as { properties: Record<string, unknown> };
    route.schema = {
      ...schema,
      headers: {
        ...headers,
        properties: {
          ...headers.properties,
          'idempotency-key': {
            type: 'string',
            description: 'Makes a retry safe: the same key and body replay the first answer for 24 hours.',
          },
        },
      },
      // While a request with the same key is still running; the same key with another body: 422.
      response: { ...errorResponses([409, 422]), ...(schema.response as object) },
    };
    const existing = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [
      async (request, reply) => {
        const key = request.headers['idempotency-key'];
        if (key === undefined || !request.principal) return;
        if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
          throw ValidationError.field('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
        }
        const companyId = request.principal.companyId;
        const now = ctx.clock.now();
        const requestHash = fingerprint(request);
        await deleteIdempotencyKeyIfOlder(ctx.db, companyId, key, new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS));
        if (await claimIdempotencyKey(ctx.db, { companyId, idempotencyKey: key, requestHash, createdAt: now })) {
          request.idempotencyClaim = { companyId, key };
          return;
        }
        const first = await findIdempotencyKey(ctx.db, companyId, key);
        if (!first) throw new ConflictError('A request with this Idempotency-Key is still in progress');
        if (first.requestHash !== requestHash) {
          throw ValidationError.field('Idempotency-Key', 'was already used with a different request');
        }
        if (first.statusCode === null) throw new ConflictError('A request with this Idempotency-Key is still in progress');
        return reply
          .status(first.statusCode)
          .header('Idempotent-Replayed', 'true')
          .header('content-type', 'application/json; charset=utf-8')
          .serializer((payload: unknown) => payload as string)
          .send(first.responseBody ?? '');
      },
      ...existing,
    ];
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = null;
    if (reply.statusCode >= 500) await releaseIdempotencyKey(ctx.db, claim.companyId, claim.key);
    else await completeIdempotencyKey(ctx.db, claim.companyId, claim.key, reply.statusCode, String(payload ?? ''));
    return payload;
  });

  app.addHook('onRequestAbort', async (request) => {
    const claim = request.idempotencyClaim;
    if (claim) await releaseIdempotencyKey(ctx.db, claim.companyId, claim.key);
  });
}
