import { bigint, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ContactSuggestions } from './text/contact-suggestions.ts';

/** A candidate's file: its metadata and where its bytes are (migration 0034). */
export const candidateFiles = pgTable('candidate_files', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  candidateId: uuid('candidate_id').notNull(),
  applicationId: uuid('application_id'),
  kind: text('kind').notNull(),
  fileName: text('file_name').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  contentType: text('content_type').notNull(),
  storageKey: text('storage_key').notNull(),
  uploadedByType: text('uploaded_by_type').notNull(),
  uploadedById: uuid('uploaded_by_id'),
  uploadedByLabel: text('uploaded_by_label').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  /** Text taken by the scheduled work (migration 0037): PENDING, DONE, NONE or FAILED. */
  textStatus: text('text_status').notNull().default('PENDING'),
  extractedText: text('extracted_text'),
  contactSuggestions: jsonb('contact_suggestions').$type<ContactSuggestions>(),
});

/** Stored objects to delete once `dueAt` has passed (an unfinished upload, a delete, an erasure). */
export const candidateFileDeletions = pgTable('candidate_file_deletions', {
  storageKey: text('storage_key').primaryKey(),
  dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
  attempts: integer('attempts').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
