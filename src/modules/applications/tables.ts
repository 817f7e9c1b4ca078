import { pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const applications = pgTable('applications', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  jobListingId: uuid('job_listing_id').notNull(),
  candidateId: uuid('candidate_id').notNull(),
  status: text('status').notNull(),
  source: text('source').notNull(),
  coverLetter: text('cover_letter'),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  /** The furthest funnel stage the application ever entered (stages.ts funnelRank; -1 none), read by the kept daily counts. */
  furthestStage: smallint('furthest_stage').notNull(),
  /** The rejection reason (companies module) of the move into the current stage; null in any stage but REJECTED and WITHDRAWN. */
  rejectionReasonId: uuid('rejection_reason_id'),
});

export const applicationStatusHistory = pgTable('application_status_history', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  applicationId: uuid('application_id').notNull(),
  fromStatus: text('from_status'),
  toStatus: text('to_status').notNull(),
  reason: text('reason'),
  /** The company's rejection reason the move gave (REJECTED or WITHDRAWN only). */
  rejectionReasonId: uuid('rejection_reason_id'),
  apiKeyId: uuid('api_key_id'),
  /** The signed-in person who made the move (migration 0035); null for an API key or the system. */
  changedByUserId: uuid('changed_by_user_id'),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
});
