// Idempotency-Key on every authenticated POST: a retried request (same key, same body) gets the
// first answer again, with Idempotent-Replayed: true, for 24 hours, a 422 included. The same key
// with another body is a client bug: 422. While the first request still runs: 409. Server faults
// (5xx) are not kept, so the client's retry really runs again. Answers are stored sealed (they
// may carry a secret shown once, or a person's data): see src/infra/idempotency/stored-response.ts.
//
// A claim is a lease (IDEMPOTENCY_LEASE_SECONDS): a request that died mid-flight leaves its key
// without an answer, and once the lease has run out a retry of the same request takes the key
// over instead of getting 409 for a day. So that the first request, if it was only slow, cannot
// then make its change as well, every transaction a claimed request opens through the service
// context (withTransaction) checks, inside that transaction, that the claim is still its own, and
// marks the key "change committed" (IdempotencyFence); a key whose change committed is never taken
// over.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import type { Clock } from '../shared/clock.ts';
import type { ServiceContext, TransactionFence } from '../shared/context.ts';
import { ConflictError, ValidationError } from '../shared/errors.ts';
import { errorResponses } from './error-envelope.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  deleteIdempotencyKeyIfOlder,
  findIdempotencyKey,
  markIdempotentChangeCommitted,
  releaseIdempotencyKey,
} from '../infra/idempotency/repo.ts';
import { IDEMPOTENCY_WINDOW_MS } from '../infra/idempotency/expiry.ts';
import { openResponse, sealResponse } from '../infra/idempotency/stored-response.ts';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

interface Claim {
  companyId: string;
  key: string;
  token: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: Claim | null;
  }
}

function fingerprint(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${request.body === undefined ? '' : JSON.stringify(request.body)}`)
    .digest('hex');
}

interface Slot {
  claim?: Claim;
  committed?: boolean;
}

/**
 * The fence, built once per process in src/deps.ts and put in the service context: a transaction
 * opened (withTransaction) for a request holding an Idempotency-Key claim also marks the key
 * "change committed", in that transaction, and rolls back (409) if a retry has taken the claim over
 * meanwhile. The key row and the change thus commit together; outside a claimed request a
 * transaction is opened as usual. Each request that may claim a key runs in a slot of its own.
 */
export class IdempotencyFence implements TransactionFence {
  readonly #slots = new AsyncLocalStorage<Slot>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Runs the rest of a request (`next`: the callback hook's done) in a slot of its own. */
  enter(next: () => void): void {
    this.#slots.run({}, next);
  }

  /** Makes the claim the current request's, for the transactions it opens from now on. */
  hold(claim: Claim): void {
    const slot = this.#slots.getStore();
    if (slot) slot.claim = claim;
  }

  async transaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
    const slot = this.#slots.getStore();
    const claim = slot?.claim;
    if (!slot || !claim || slot.committed) return db.transaction(work);
    const result = await db.transaction(async (tx) => {
      const value = await work(tx);
      if (!(await markIdempotentChangeCommitted(tx, claim, this.#clock.now()))) {
        throw new ConflictError(
          'This request took longer than its Idempotency-Key lease and a retry has taken the key over; this attempt was rolled back',
        );
      }
      return value;
    });
    slot.committed = true;
    return result;
  }
}

export function registerIdempotency(app: FastifyInstance, ctx: ServiceContext, options: { fence: IdempotencyFence; leaseMs: number }): void {
  const { fence } = options;
  app.decorateRequest('idempotencyClaim', null);

  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!route.config?.auth || !methods.includes('POST')) return;
    // Every request that may claim a key gets its own slot (the callback form keeps the rest of the
    // request inside it); any other request runs its transactions unfenced, as a slot without a
    // claim would.
    route.onRequest = [...(route.onRequest ? [route.onRequest].flat() : []), (_request, _reply, done) => fence.enter(done)];
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
            description:
              'Makes a retry safe: the same key and body replay the first answer for 24 hours. While the first request runs, 409; if it died without answering, a retry after the lease (60 s by default) runs it.',
          },
        },
      },
      // While a request with the same key is still running; the same key with another body: 422.
      response: { ...errorResponses([409, 422]), ...(schema.response as object) },
    };
    // Before validation: a request the schema refuses (422) holds its key too, so its replay
    // answers that 422 again, as every other first answer is replayed.
    const existing = route.preValidation ? [route.preValidation].flat() : [];
    route.preValidation = [
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
        const token = randomUUID();
        const claimed = await claimIdempotencyKey(
          ctx.db,
          { companyId, idempotencyKey: key, requestHash, createdAt: now, claimToken: token },
          new Date(now.getTime() - options.leaseMs),
        );
        if (claimed) {
          const claim = { companyId, key, token };
          request.idempotencyClaim = claim;
          fence.hold(claim);
          return;
        }
        const first = await findIdempotencyKey(ctx.db, companyId, key);
        if (!first) throw new ConflictError('A request with this Idempotency-Key is still in progress');
        if (first.requestHash !== requestHash) {
          throw ValidationError.field('Idempotency-Key', 'was already used with a different request');
        }
        if (first.statusCode === null) {
          if (first.changeCommittedAt) {
            throw new ConflictError(
              'The request with this Idempotency-Key made its change, but its answer was lost; read the resource instead of retrying',
            );
          }
          throw new ConflictError('A request with this Idempotency-Key is still in progress');
        }
        return reply
          .status(first.statusCode)
          .header('Idempotent-Replayed', 'true')
          .header('content-type', 'application/json; charset=utf-8')
          .serializer((payload: unknown) => payload as string)
          .send(first.responseBody ? openResponse(ctx.secrets, companyId, key, first.responseBody) : '');
      },
      ...existing,
    ];
  });

  // A callback hook: most answers hold no claim, and pass without a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    const claim = request.idempotencyClaim;
    if (!claim) return done(null, payload);
    request.idempotencyClaim = null;
    const settled =
      reply.statusCode >= 500
        ? releaseIdempotencyKey(ctx.db, claim).catch((error: unknown) => {
            // Typically the database went away, which the 5xx already says: that answer is sent
            // (not a second error's), and the claim stays a lease for a retry to take over.
            request.log.warn({ err: error }, 'Idempotency-Key claim not released');
          })
        : completeIdempotencyKey(ctx.db, claim, reply.statusCode, sealResponse(ctx.secrets, claim.companyId, claim.key, String(payload ?? '')));
    settled.then(() => done(null, payload), done);
  });

  app.addHook('onRequestAbort', async (request) => {
    const claim = request.idempotencyClaim;
    if (claim) await releaseIdempotencyKey(ctx.db, claim);
  });
}
