import { pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';

/** A company's sample data (migration 0042): which listings and candidates the fill made. */
export const sampleDataSets = pgTable('sample_data_sets', {
  companyId: uuid('company_id').primaryKey(),
  filledAt: timestamp('filled_at', { withTimezone: true }).notNull(),
  filledByUserId: uuid('filled_by_user_id'),
  jobListingIds: uuid('job_listing_ids').array().notNull(),
  candidateIds: uuid('candidate_ids').array().notNull(),
});

export type SampleDataSetRow = typeof sampleDataSets.$inferSelect;
