import { sql } from 'drizzle-orm';
import { customType, pgTable, pgView, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({
  dataType: () => 'tsvector',
});

export const candidates = pgTable('candidates', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  email: text('email').notNull(),
  phone: text('phone'),
  headline: text('headline'),
  location: text('location'),
  skills: text('skills').array().notNull(),
  links: text('links').array().notNull(),
  source: text('source').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  /** Set when the person was erased (0014_candidate_erasure.sql): the row stays, anonymized, and reads as gone. */
  erasedAt: timestamp('erased_at', { withTimezone: true }),
  /**
   * The words of the candidate's files (migration 0039), stripped: kept by refreshFileWords
   * (repo.ts) from the documents module's view candidate_file_texts, never written otherwise.
   */
  fileWords: tsvector('file_words').notNull().default(sql`''::tsvector`),
  // Computed by the database (0004_pipeline.sql, 0039_candidate_search_file_words.sql); never written by the application.
  searchVector: tsvector('search_vector')
    .notNull()
    .generatedAlwaysAs(sql`candidate_search_vector(first_name, last_name, email, headline, skills, file_words)`),
});

/**
 * A candidate's summary as other modules' statements read it (migration 0030): the applications
 * module embeds it in its pages in the same round trip, naming this view, never the table. Every
 * candidate, erased ones too (anonymized); a reader filters on company_id like on any table.
 * Defined here as in the migration, so candidateSummaries (service.ts) reads the same columns.
 */
export const candidateSummariesView = pgView('candidate_summaries').as((qb) =>
  qb
    .select({
      id: candidates.id,
      companyId: candidates.companyId,
      firstName: candidates.firstName,
      lastName: candidates.lastName,
      headline: candidates.headline,
      email: candidates.email,
      phone: candidates.phone,
    })
    .from(candidates),
);
