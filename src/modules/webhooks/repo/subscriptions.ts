// SQL of webhook subscriptions: create (within the per-company cap), read, change, rotate and
// re-seal secrets, delete. The worker's writes to a subscription's health are circuit-breaker.ts.
import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { keysetAfter, keysetOrderBy } from '../../../db/keyset.ts';
import type { PagePosition } from '../../../shared/pagination.ts';
import { webhookSubscriptions } from '../tables.ts';

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;

/**
 * Inserts the subscription unless the company already has `max` (active or not), in one
 * transaction that holds a per-company lock, so two creates at once cannot both pass the count.
 * Answers false when the cap was reached.
 */
export async function insertSubscriptionWithinCap(db: Db, row: SubscriptionRow, max: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('webhook_subscriptions'), hashtext(${row.companyId}))`);
    const [{ total }] = await tx
      .select({ total: count() })
      .from(webhookSubscriptions)
      .where(eq(webhookSubscriptions.companyId, row.companyId));
    if (total >= max) return false;
    await tx.insert(webhookSubscriptions).values(row);
    return true;
  });
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
  page: PagePosition,
): Promise<{ rows: SubscriptionRow[]; total: number }> {
  const where = eq(webhookSubscriptions.companyId, companyId);
  const sortKeys = [webhookSubscriptions.createdAt, webhookSubscriptions.id];
  const rows = await db
    .select()
    .from(webhookSubscriptions)
    .where(and(where, keysetAfter(sortKeys, page)))
    .orderBy(...keysetOrderBy(sortKeys, page))
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

/** Deletes the subscription; answers its URL, or undefined when there was none. */
export async function deleteSubscription(db: Db, companyId: string, id: string): Promise<{ url: string } | undefined> {
  const [row] = await db
    .delete(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.companyId, companyId)))
    .returning({ url: webhookSubscriptions.url });
  return row;
}
