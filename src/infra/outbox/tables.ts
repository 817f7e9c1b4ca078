import { sql } from 'drizzle-orm';
import { bigserial, customType, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** A 64-bit transaction id, read and written as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

export const events = pgTable('events', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  type: text('type').notNull(),
  data: jsonb('data').notNull(),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
  /** Failed fan-outs of this event so far; it is set aside until dispatchRetryAt after each. */
  dispatchFailures: integer('dispatch_failures').notNull().default(0),
  dispatchRetryAt: timestamp('dispatch_retry_at', { withTimezone: true }),
  /** The transaction that recorded the event: the event feed's order (0013_event_feed.sql). */
  txId: xid8('tx_id').notNull().default(sql`pg_current_xact_id()`),
  /** Insertion order within a transaction. */
  seq: bigserial('seq', { mode: 'bigint' }).notNull(),
});
