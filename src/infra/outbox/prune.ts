// Retention of the outbox: events already fanned out to webhook deliveries are kept only for a
// while (the deliveries carry their own copy of the payload). Undispatched events are never pruned.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';

/** Deletes up to `limit` dispatched events that occurred before `before`; returns how many. */
export async function pruneDispatchedEvents(db: Db, before: Date, limit: number): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`
      DELETE FROM events WHERE id IN (
        SELECT id FROM events
        WHERE dispatched_at IS NOT NULL AND occurred_at < ${before.toISOString()}::timestamptz
        ORDER BY occurred_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id`,
  );
  return rows.length;
}
