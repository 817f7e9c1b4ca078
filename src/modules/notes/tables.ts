import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Notes on candidates (migration 0035). A deleted note stays as a tombstone: body null, deletedAt set. */
export const notes = pgTable('notes', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  candidateId: uuid('candidate_id').notNull(),
  /** One of the candidate's applications the note is about; null: the candidate as a whole. */
  applicationId: uuid('application_id'),
  /** Plain text, 1 to 10,000 characters; null once deleted. */
  body: text('body'),
  /** The author: a user or an API key, exactly one of the two. */
  authorUserId: uuid('author_user_id'),
  authorApiKeyId: uuid('author_api_key_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  /** The last edit; null: never edited. */
  editedAt: timestamp('edited_at', { withTimezone: true }),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  deletedByUserId: uuid('deleted_by_user_id'),
  deletedByApiKeyId: uuid('deleted_by_api_key_id'),
});
