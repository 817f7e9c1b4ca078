// SQL of the delivery log as the API and the operators see it: deliveries and their attempts
// listed, queued again by hand, counted for /metrics, pruned by retention, and rewritten or
// exported for a person's data. The worker's own statements are fan-out.ts, claim.ts, outcome.ts.
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../../db/client.ts';
import { deleteBatch } from '../../../db/delete-batch.ts';
import { keysetAfter, keysetOrderBy } from '../../../db/keyset.ts';
import type { PagePosition } from '../../../shared/pagination.ts';
import type { DeliveryStatus } from '../retry-schedule.ts';
import { webhookDeliveries, webhookDeliveryAttempts } from '../tables.ts';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookDeliveryAttempts.$inferSelect;

export async function listDeliveries(
  db: Db,
  subscriptionId: string,
  filter: { status?: DeliveryStatus | undefined },
  page: PagePosition,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const sortKeys = [webhookDeliveries.createdAt, webhookDeliveries.id];
  const where = and(
    eq(webhookDeliveries.subscriptionId, subscriptionId),
    filter.status ? eq(webhookDeliveries.status, filter.status) : undefined,
  );
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(where, keysetAfter(sortKeys, page)))
    .orderBy(...keysetOrderBy(sortKeys, page))
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

// ---- backlog (metrics) ---------------------------------------------------------------------------

/** Pending deliveries: how many, and the oldest's creation time (null when none). */
export async function countPendingDeliveries(db: Db): Promise<{ pending: number; oldestPending: Date | null }> {
  const [row] = await queryRows<{ pending: number; oldest_pending: string | Date | null }>(
    db,
    sql`SELECT count(*)::int AS pending, min(created_at) AS oldest_pending FROM webhook_deliveries WHERE status = 'PENDING'`,
  );
  return { pending: row!.pending, oldestPending: row!.oldest_pending === null ? null : new Date(row!.oldest_pending) };
}

// ---- retention -------------------------------------------------------------------------------------

/**
 * Deletes up to `limit` finished deliveries (DELIVERED or FAILED) last changed before `before`;
 * their attempts go with them (ON DELETE CASCADE). Pending deliveries are never pruned.
 */
export async function deleteFinishedDeliveriesBefore(db: Db, before: Date, limit: number): Promise<number> {
  return deleteBatch(db, {
    table: 'webhook_deliveries',
    key: ['id'],
    where: sql`status <> 'PENDING' AND updated_at < ${before.toISOString()}::timestamptz`,
    age: 'updated_at',
    limit,
  });
}

// ---- erasure and export of a person's data ---------------------------------------------------------

/** The company's deliveries whose body names any of these ids (found by the body: its event may be pruned already). */
export async function listDeliveriesMentioning(db: Db, companyId: string, ids: string[]): Promise<DeliveryRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.companyId, companyId),
        sql`(${sql.join(
          ids.map((id) => sql`strpos(${webhookDeliveries.payload}, ${id}) > 0`),
          sql` or `,
        )})`,
      ),
    )
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id));
}

export async function setDeliveryPayload(db: Db, id: string, payload: string): Promise<void> {
  await db.update(webhookDeliveries).set({ payload }).where(eq(webhookDeliveries.id, id));
}

export async function setAttemptResponseBody(db: Db, id: string, responseBody: string | null): Promise<void> {
  await db.update(webhookDeliveryAttempts).set({ responseBody }).where(eq(webhookDeliveryAttempts.id, id));
}
