import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
});
