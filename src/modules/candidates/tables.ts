import { sql } from 'drizzle-orm';
import { customType, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
  // Computed by the database (see 0004_pipeline.sql); never written by the application.
  searchVector: tsvector('search_vector')
    .notNull()
    .generatedAlwaysAs(sql`candidate_search_vector(first_name, last_name, email, headline, skills)`),
});
