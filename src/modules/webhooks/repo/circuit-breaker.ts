// SQL of what a failed attempt does to its subscription: its run of failures, its circuit, and
// disabling it (a 410, or failing for too long). A success's side (the run ends) is outcome.ts.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { webhookSubscriptions } from '../tables.ts';
import type { SubscriptionRow } from './subscriptions.ts';

/**
 * Starts (or continues) the subscription's run of failures and counts this one; at `circuit.failures`
 * in a row its circuit opens until `circuit.openUntil`. Once it has opened, only an attempt begun
 * after its cool-down (the probe) opens it again: the failures of sends that began before (still
 * hanging when it opened) count, but neither push it further nor reopen it behind the probe's back.
 * Returns the row and whether this failure opened the circuit.
 */
export async function markSubscriptionFailing(
  tx: Db,
  id: string,
  now: Date,
  circuit: { failures: number; openUntil: Date; attemptedAt: Date },
): Promise<{ row: SubscriptionRow; opened: boolean } | undefined> {
  const at = now.toISOString();
  const opens = sql`${webhookSubscriptions.consecutiveFailures} + 1 >= ${circuit.failures}::int
    AND (${webhookSubscriptions.circuitOpenUntil} IS NULL
         OR ${webhookSubscriptions.circuitOpenUntil} <= ${circuit.attemptedAt.toISOString()}::timestamptz)`;
  const [row] = await tx
    .update(webhookSubscriptions)
    .set({
      failingSince: sql`coalesce(${webhookSubscriptions.failingSince}, ${at}::timestamptz)`,
      consecutiveFailures: sql`${webhookSubscriptions.consecutiveFailures} + 1`,
      circuitOpenUntil: sql`CASE WHEN ${opens} THEN ${circuit.openUntil.toISOString()}::timestamptz ELSE ${webhookSubscriptions.circuitOpenUntil} END`,
    })
    .where(eq(webhookSubscriptions.id, id))
    .returning();
  if (!row) return undefined;
  return { row, opened: row.circuitOpenUntil !== null && row.circuitOpenUntil.getTime() === circuit.openUntil.getTime() };
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
