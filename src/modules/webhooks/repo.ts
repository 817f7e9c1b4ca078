// SQL of the webhooks module: subscriptions, deliveries and their attempts, and the worker's
// fan-out and claim queries.
import { and, asc, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import { events } from '../outbox/tables.ts';
import type { DeliveryStatus } from './retry-schedule.ts';
import { webhookDeliveries, webhookDeliveryAttempts, webhookSubscriptions } from './tables.ts';

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookDeliveryAttempts.$inferSelect;
export type EventRow = typeof events.$inferSelect;

// ---- subscriptions ------------------------------------------------------------------------------

export async function insertSubscription(db: Db, row: SubscriptionRow): Promise<void> {
  await db.insert(webhookSubscriptions).values(row);
}

export async function findSubscription(db: Db, companyId: string, id: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.companyId, companyId)))
    .limit(1);
  return row;
}

export async function listSubscriptions(
  db: Db,
  companyId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: SubscriptionRow[]; total: number }> {
  const where = eq(webhookSubscriptions.companyId, companyId);
  const rows = await db
    .select()
    .from(webhookSubscriptions)
    .where(where)
    .orderBy(desc(webhookSubscriptions.createdAt), desc(webhookSubscriptions.id))
    .limit(page.limit)
    .offset(page.offset);
  const [{ total }] = await db.select({ total: count() }).from(webhookSubscriptions).where(where);
  return { rows, total };
}

export async function updateSubscription(
  db: Db,
  companyId: string,
  id: string,
  patch: Partial<Omit<SubscriptionRow, 'id' | 'companyId' | 'createdAt'>>,
): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .update(webhookSubscriptions)
    .set(patch)
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.companyId, companyId)))
    .returning();
  return row;
}

/**
 * Makes `secret` the signing secret and the current one the previous, in one statement (the
 * right-hand sides see the row as it was), so two rotations at once cannot lose a secret that was
 * already shown.
 */
export async function rotateSubscriptionSecret(
  db: Db,
  companyId: string,
  id: string,
  input: { secret: string; previousSecretExpiresAt: Date; now: Date },
): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .update(webhookSubscriptions)
    .set({
      previousSecret: sql`${webhookSubscriptions.secret}`,
      previousSecretExpiresAt: input.previousSecretExpiresAt,
      secret: input.secret,
      updatedAt: input.now,
    })
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.companyId, companyId)))
    .returning();
  return row;
}

export interface StoredSecrets {
  id: string;
  secret: string;
  previousSecret: string | null;
}

/** Stored secrets of every subscription, by id, a page at a time (re-sealing). */
export async function listStoredSecrets(db: Db, afterId: string | null, limit: number): Promise<StoredSecrets[]> {
  return db
    .select({ id: webhookSubscriptions.id, secret: webhookSubscriptions.secret, previousSecret: webhookSubscriptions.previousSecret })
    .from(webhookSubscriptions)
    .where(afterId === null ? undefined : gt(webhookSubscriptions.id, afterId))
    .orderBy(asc(webhookSubscriptions.id))
    .limit(limit);
}

/** Replaces the stored secrets if the row still holds `was` (compare and set). */
export async function replaceStoredSecrets(
  db: Db,
  was: StoredSecrets,
  next: { secret: string; previousSecret: string | null },
): Promise<boolean> {
  const rows = await db
    .update(webhookSubscriptions)
    .set(next)
    .where(
      and(
        eq(webhookSubscriptions.id, was.id),
        eq(webhookSubscriptions.secret, was.secret),
        was.previousSecret === null ? isNull(webhookSubscriptions.previousSecret) : eq(webhookSubscriptions.previousSecret, was.previousSecret),
      ),
    )
    .returning({ id: webhookSubscriptions.id });
  return rows.length > 0;
}

export async function deleteSubscription(db: Db, companyId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.companyId, companyId)))
    .returning({ id: webhookSubscriptions.id });
  return rows.length > 0;
}

// ---- delivery log -------------------------------------------------------------------------------

export async function listDeliveries(
  db: Db,
  subscriptionId: string,
  filter: { status?: DeliveryStatus | undefined },
  page: { limit: number; offset: number },
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const where = and(
    eq(webhookDeliveries.subscriptionId, subscriptionId),
    filter.status ? eq(webhookDeliveries.status, filter.status) : undefined,
  );
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(page.limit)
    .offset(page.offset);
  const [{ total }] = await db.select({ total: count() }).from(webhookDeliveries).where(where);
  return { rows, total };
}

export async function findDelivery(db: Db, subscriptionId: string, id: string): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.subscriptionId, subscriptionId)))
    .limit(1);
  return row;
}

/** Attempts of the given deliveries, oldest first. */
export async function listAttempts(db: Db, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .select()
    .from(webhookDeliveryAttempts)
    .where(inArray(webhookDeliveryAttempts.deliveryId, deliveryIds))
    .orderBy(asc(webhookDeliveryAttempts.attemptedAt), asc(webhookDeliveryAttempts.id));
}

export async function insertDelivery(db: Db, row: DeliveryRow): Promise<void> {
  await db.insert(webhookDeliveries).values(row);
}

export async function insertAttempt(db: Db, row: AttemptRow): Promise<void> {
  await db.insert(webhookDeliveryAttempts).values(row);
}

/**
 * Queues a delivery again, due now, at the start of the retry schedule. A lease held by a worker
 * sending it right now is left alone: that worker's outcome then stands.
 */
export async function requeueDelivery(db: Db, id: string, now: Date): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'PENDING', retryStep: 0, nextAttemptAt: now, updatedAt: now })
    .where(eq(webhookDeliveries.id, id))
    .returning();
  return row;
}

// ---- worker: fan-out ----------------------------------------------------------------------------

/**
 * Locks a batch of events not yet fanned out. SKIP LOCKED: another worker's batch is passed over,
 * so workers never wait for each other and never fan out one event twice.
 */
export async function lockUndispatchedEvents(tx: Db, limit: number): Promise<EventRow[]> {
  return tx
    .select()
    .from(events)
    .where(isNull(events.dispatchedAt))
    .orderBy(asc(events.occurredAt), asc(events.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function activeSubscriptionsOf(
  tx: Db,
  companyIds: string[],
): Promise<Array<Pick<SubscriptionRow, 'id' | 'companyId' | 'events' | 'createdAt'>>> {
  if (companyIds.length === 0) return [];
  return tx
    .select({
      id: webhookSubscriptions.id,
      companyId: webhookSubscriptions.companyId,
      events: webhookSubscriptions.events,
      createdAt: webhookSubscriptions.createdAt,
    })
    .from(webhookSubscriptions)
    .where(and(inArray(webhookSubscriptions.companyId, companyIds), eq(webhookSubscriptions.active, true)));
}

/** Idempotent: a (subscription, event) pair already queued is skipped. */
export async function insertDeliveries(tx: Db, rows: DeliveryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(webhookDeliveries).values(rows).onConflictDoNothing();
}

export async function markEventsDispatched(tx: Db, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx.update(events).set({ dispatchedAt: at }).where(inArray(events.id, ids));
}

// ---- worker: claim and outcome ------------------------------------------------------------------

export interface ClaimedDelivery {
  delivery: DeliveryRow;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * Takes a lease on up to `limit` due deliveries of active subscriptions, in one statement.
 * FOR UPDATE SKIP LOCKED makes concurrent claimers take disjoint rows, and a row whose lease
 * another claimer has just committed no longer matches when re-checked, so each attempt is claimed
 * by exactly one worker. A lease that ran out (its worker died) makes the delivery due again.
 */
export async function claimDueDeliveries(
  db: Db,
  input: { now: Date; leaseUntil: Date; token: string; limit: number },
): Promise<ClaimedDelivery[]> {
  const now = input.now.toISOString();
  const claimed = await queryRows<{ id: string }>(
    db,
    sql`
      WITH due AS (
        SELECT d.id
        FROM webhook_deliveries d
        JOIN webhook_subscriptions s ON s.id = d.subscription_id
        WHERE d.status = 'PENDING'
          AND d.next_attempt_at <= ${now}::timestamptz
          AND (d.locked_until IS NULL OR d.locked_until <= ${now}::timestamptz)
          AND s.active
        ORDER BY d.next_attempt_at, d.id
        LIMIT ${input.limit}
        FOR UPDATE OF d SKIP LOCKED
      )
      UPDATE webhook_deliveries d
      SET locked_until = ${input.leaseUntil.toISOString()}::timestamptz, claim_token = ${input.token}::uuid
      FROM due
      WHERE d.id = due.id
      RETURNING d.id`,
  );
  if (claimed.length === 0) return [];
  return db
    .select({
      delivery: webhookDeliveries,
      url: webhookSubscriptions.url,
      secret: webhookSubscriptions.secret,
      previousSecret: webhookSubscriptions.previousSecret,
      previousSecretExpiresAt: webhookSubscriptions.previousSecretExpiresAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookSubscriptions, eq(webhookSubscriptions.id, webhookDeliveries.subscriptionId))
    .where(
      and(
        inArray(
          webhookDeliveries.id,
          claimed.map((row) => row.id),
        ),
        eq(webhookDeliveries.claimToken, input.token),
      ),
    );
}

/** Applies an attempt's outcome, if the lease is still ours; returns the row or undefined. */
export async function finishClaimedDelivery(
  tx: Db,
  input: {
    id: string;
    token: string;
    now: Date;
    status: DeliveryStatus;
    retryStep: number;
    nextAttemptAt: Date | null;
  },
): Promise<DeliveryRow | undefined> {
  const [row] = await tx
    .update(webhookDeliveries)
    .set({
      status: input.status,
      retryStep: input.retryStep,
      nextAttemptAt: input.nextAttemptAt,
      attemptCount: sql`${webhookDeliveries.attemptCount} + 1`,
      lockedUntil: null,
      claimToken: null,
      updatedAt: input.now,
    })
    .where(and(eq(webhookDeliveries.id, input.id), eq(webhookDeliveries.claimToken, input.token)))
    .returning();
  return row;
}

/** Records an attempt unless its delivery is gone (its subscription was deleted meanwhile). */
export async function insertAttemptIfDeliveryExists(tx: Db, row: AttemptRow): Promise<void> {
  await tx.execute(sql`
    INSERT INTO webhook_delivery_attempts (id, delivery_id, attempted_at, status_code, duration_ms, error, response_body)
    SELECT ${row.id}::uuid, ${row.deliveryId}::uuid, ${row.attemptedAt.toISOString()}::timestamptz, ${row.statusCode}::integer,
           ${row.durationMs}::integer, ${row.error}, ${row.responseBody}
    WHERE EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = ${row.deliveryId}::uuid)`);
}

export async function markSubscriptionHealthy(tx: Db, id: string): Promise<void> {
  await tx
    .update(webhookSubscriptions)
    .set({ failingSince: null })
    .where(and(eq(webhookSubscriptions.id, id), sql`${webhookSubscriptions.failingSince} IS NOT NULL`));
}

/** Starts (or continues) the subscription's run of failures; returns when the run started. */
export async function markSubscriptionFailing(tx: Db, id: string, now: Date): Promise<SubscriptionRow | undefined> {
  const [row] = await tx
    .update(webhookSubscriptions)
    .set({ failingSince: sql`coalesce(${webhookSubscriptions.failingSince}, ${now.toISOString()}::timestamptz)` })
    .where(eq(webhookSubscriptions.id, id))
    .returning();
  return row;
}

export async function disableSubscription(
  tx: Db,
  id: string,
  reason: 'ENDPOINT_GONE' | 'FAILING',
  now: Date,
): Promise<void> {
  await tx
    .update(webhookSubscriptions)
    .set({ active: false, disabledReason: reason, updatedAt: now })
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.active, true)));
}
