// Retention: the worker (or the server's in-process worker) deletes what is no longer needed, so
// the events, delivery and idempotency tables stop growing: dispatched events and finished webhook
// deliveries (with their attempts) after RETENTION_EVENTS_DAYS / RETENTION_DELIVERIES_DAYS (30),
// idempotency keys after RETENTION_IDEMPOTENCY_HOURS (24, the replay window), the authorization
// server's rows (tokens, codes, sessions) once expired. Each delete is a bounded batch in its own
// short statement (src/db/delete-batch.ts: SKIP LOCKED, so several workers may sweep at once), and
// one sweep stops after a bounded number of batches, leaving the rest to the next sweep.
//
// This is the one periodic sweep for expiring rows (src/scheduled-work.ts runs it): add new kinds
// to RULES below rather than starting another loop.
import type { Config } from '../config.ts';
import type { ServiceContext } from '../shared/context.ts';
import { pruneDispatchedEvents } from '../infra/outbox/prune.ts';
import { pruneIdempotencyKeys } from '../infra/idempotency/prune.ts';
import { purgeExpiredOidcPayloads } from '../modules/oauth/service.ts';
import { pruneFinishedDeliveries } from '../modules/webhooks/service.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

interface RetentionRule {
  name: string;
  /** How old a row must be to go. */
  ageMs(retention: Config['retention']): number;
  prune(ctx: ServiceContext, before: Date, limit: number): Promise<number>;
}

const RULES: RetentionRule[] = [
  { name: 'events', ageMs: (r) => r.eventsDays * DAY_MS, prune: (ctx, before, limit) => pruneDispatchedEvents(ctx.db, before, limit) },
  { name: 'webhookDeliveries', ageMs: (r) => r.deliveriesDays * DAY_MS, prune: pruneFinishedDeliveries },
  { name: 'idempotencyKeys', ageMs: (r) => r.idempotencyHours * HOUR_MS, prune: (ctx, before, limit) => pruneIdempotencyKeys(ctx.db, before, limit) },
  // Each row carries its own expiry: it goes as soon as that has passed.
  { name: 'oauthExpired', ageMs: () => 0, prune: purgeExpiredOidcPayloads },
];

export interface SweepOptions {
  /** Rows per delete statement. */
  batchSize?: number;
  /** Batches per kind in one sweep; what is left waits for the next sweep. */
  maxBatches?: number;
}

/** One sweep: every rule, in batches. Returns the rows deleted per kind. */
export async function sweepRetention(
  ctx: ServiceContext,
  retention: Config['retention'],
  options: SweepOptions = {},
): Promise<Record<string, number>> {
  const batchSize = options.batchSize ?? 1000;
  const maxBatches = options.maxBatches ?? 50;
  const now = ctx.clock.now().getTime();
  const deleted: Record<string, number> = {};
  for (const rule of RULES) {
    const before = new Date(now - rule.ageMs(retention));
    let total = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      const count = await rule.prune(ctx, before, batchSize);
      total += count;
      if (count < batchSize) break;
    }
    deleted[rule.name] = total;
  }
  return deleted;
}
