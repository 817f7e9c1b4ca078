// The outbox's reading side, for webhook delivery's fan-out: events not yet fanned out, marking
// them done, and setting aside one whose fan-out failed. (Writing is record-event.ts, inside each
// service's transaction.)
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from './tables.ts';

export type EventRow = typeof events.$inferSelect;

/**
 * Locks a batch of events not yet fanned out and not set aside after a failed fan-out. SKIP LOCKED:
 * another worker's batch is passed over, so workers never wait for each other and never fan out
 * one event twice.
 */
export async function lockUndispatchedEvents(tx: Db, limit: number, now: Date): Promise<EventRow[]> {
  return tx
    .select()
    .from(events)
    .where(and(isNull(events.dispatchedAt), or(isNull(events.dispatchRetryAt), lte(events.dispatchRetryAt, now))))
    .orderBy(asc(events.occurredAt), asc(events.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function markEventsDispatched(tx: Db, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx.update(events).set({ dispatchedAt: at }).where(inArray(events.id, ids));
}

/** Sets an event aside after a failed fan-out; answers how many times it has failed. */
export async function markEventDispatchFailed(tx: Db, id: string, retryAt: (failures: number) => Date): Promise<number> {
  const [row] = await tx
    .update(events)
    .set({ dispatchFailures: sql`${events.dispatchFailures} + 1` })
    .where(eq(events.id, id))
    .returning({ failures: events.dispatchFailures });
  const failures = row?.failures ?? 1;
  await tx.update(events).set({ dispatchRetryAt: retryAt(failures) }).where(eq(events.id, id));
  return failures;
}
