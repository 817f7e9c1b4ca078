import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The company's audit log (migration 0040): one row per administrative action, never updated. */
export const auditEntries = pgTable('audit_entries', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  actorType: text('actor_type').notNull(),
  actorId: uuid('actor_id'),
  actorLabel: text('actor_label').notNull(),
  action: text('action').notNull(),
  targetType: text('target_type').notNull(),
  targetId: uuid('target_id'),
  targetLabel: text('target_label'),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
});

export type AuditEntryRow = typeof auditEntries.$inferSelect;
