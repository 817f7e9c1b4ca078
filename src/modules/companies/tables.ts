import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const companies = pgTable('companies', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  defaultLanguage: text('default_language').notNull(),
  requiresListingReview: boolean('requires_listing_review').notNull(),
  /** A move into REJECTED must name one of the company's rejection reasons (migration 0036). */
  requiresRejectionReason: boolean('requires_rejection_reason').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** The company's reasons for a move into REJECTED (kind REJECTION) or WITHDRAWN (kind WITHDRAWAL). */
export const rejectionReasons = pgTable('rejection_reasons', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  kind: text('kind').notNull(),
  name: text('name').notNull(),
  /** false: archived (kept for the moves that gave it; no new move may give it). */
  active: boolean('active').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
