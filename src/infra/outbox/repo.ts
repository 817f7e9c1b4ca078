// The outbox's reading side, for webhook delivery's fan-out: events not yet fanned out, and marking
// them done. (Writing is record-event.ts, inside each service's transaction.)
import { asc, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from './tables.ts';

export type EventRow = typeof events.$inferSelect;

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

export async function markEventsDispatched(tx: Db, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx.update(events).set({ dispatchedAt: at }).where(inArray(events.id, ids));
}
