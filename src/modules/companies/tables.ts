import { boolean, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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

/** The company's public job board and careers pages (migration 0038): off until enabled with a slug. */
export const companyBoards = pgTable('company_boards', {
  companyId: uuid('company_id').primaryKey(),
  slug: text('slug'),
  enabled: boolean('enabled').notNull(),
  publicName: text('public_name'),
  /** Intro text per language (BCP 47 tag -> text). */
  intro: jsonb('intro').$type<Record<string, string>>().notNull(),
  logoKey: text('logo_key'),
  logoContentType: text('logo_content_type'),
  accentColor: text('accent_color'),
  privacyPolicyUrl: text('privacy_policy_url'),
  showSalary: boolean('show_salary').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
