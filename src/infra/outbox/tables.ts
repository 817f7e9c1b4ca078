import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const events = pgTable('events', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  type: text('type').notNull(),
  data: jsonb('data').notNull(),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
});
