// Retention of the outbox: events already fanned out to webhook deliveries are kept only for a
// while (the deliveries carry their own copy of the payload). Undispatched events are never pruned.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { deleteBatch } from '../../db/delete-batch.ts';

/** Deletes up to `limit` dispatched events that occurred before `before`; returns how many. */
export async function pruneDispatchedEvents(db: Db, before: Date, limit: number): Promise<number> {
  return deleteBatch(db, {
    table: 'events',
    key: ['id'],
    where: sql`dispatched_at IS NOT NULL AND occurred_at < ${before.toISOString()}::timestamptz`,
    age: 'occurred_at',
    limit,
  });
}
