// Drizzle mirror of src/db/migrations/0003_job_listings.sql (the SQL is the source of truth).
import { boolean, date, doublePrecision, integer, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

export const jobListings = pgTable('job_listings', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  status: text('status').notNull(),
  language: text('language').notNull(),
  sectorId: uuid('sector_id'),
  position: text('position').notNull(),
  positionType: text('position_type').notNull(),
  workPlaceType: text('work_place_type').notNull(),
  addressStreet: text('address_street'),
  addressCity: text('address_city'),
  addressState: text('address_state'),
  addressCountry: text('address_country'),
  addressPostalCode: text('address_postal_code'),
  addressLatitude: doublePrecision('address_latitude'),
  addressLongitude: doublePrecision('address_longitude'),
  isStartDate: boolean('is_start_date'),
  startDate: date('start_date', { mode: 'string' }),
  jobDescription: text('job_description'),
  requirementsSummary: text('requirements_summary'),
  personalQualitiesSummary: text('personal_qualities_summary'),
  currency: text('currency'),
  salaryBase: numeric('salary_base', { mode: 'number' }),
  isSalaryMax: boolean('is_salary_max'),
  salaryMax: numeric('salary_max', { mode: 'number' }),
  salaryType: text('salary_type'),
  paymentInterval: text('payment_interval'),
  salaryDescription: text('salary_description'),
  educationLevel: text('education_level'),
  fieldOfStudy: text('field_of_study'),
  yearsOfExperience: integer('years_of_experience'),
  availableForEveryCountry: boolean('available_for_every_country'),
  numberOfPositionsOpened: integer('number_of_positions_opened'),
  jobListingEndDate: date('job_listing_end_date', { mode: 'string' }),
  referenceNumber: text('reference_number'),
  rejectionReason: text('rejection_reason'),
  createdAt: timestamptz('created_at').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
  publishedAt: timestamptz('published_at'),
  activatedAt: timestamptz('activated_at'),
  expiresAt: timestamptz('expires_at'),
  closedAt: timestamptz('closed_at'),
  /** When machine translation of its texts is next due (migration 0012); null: nothing to do. */
  machineTranslationDueAt: timestamptz('machine_translation_due_at'),
});

export const jobListingSkills = pgTable('job_listing_skills', {
  id: uuid('id').primaryKey(),
  jobListingId: uuid('job_listing_id').notNull(),
  sortOrder: integer('sort_order').notNull(),
  value: text('value').notNull(),
  type: text('type'),
  expertType: text('expert_type'),
  languageProficiency: text('language_proficiency'),
  drivingClass: text('driving_class'),
});

export const jobListingBenefits = pgTable('job_listing_benefits', {
  id: uuid('id').primaryKey(),
  jobListingId: uuid('job_listing_id').notNull(),
  sortOrder: integer('sort_order').notNull(),
  value: text('value').notNull(),
});

export const jobListingHiringSteps = pgTable('job_listing_hiring_steps', {
  id: uuid('id').primaryKey(),
  jobListingId: uuid('job_listing_id').notNull(),
  stepOrder: integer('step_order').notNull(),
  stepName: text('step_name').notNull(),
  description: text('description'),
});

export const jobListingTags = pgTable('job_listing_tags', {
  id: uuid('id').primaryKey(),
  jobListingId: uuid('job_listing_id').notNull(),
  tagId: uuid('tag_id').notNull(),
});

export const jobListingRequirements = pgTable('job_listing_requirements', {
  id: uuid('id').primaryKey(),
  jobListingId: uuid('job_listing_id').notNull(),
  sortOrder: integer('sort_order').notNull(),
  requirementText: text('requirement_text').notNull(),
});

export const jobListingTranslations = pgTable('job_listing_translations', {
  id: uuid('id').primaryKey(),
  jobListingId: uuid('job_listing_id').notNull(),
  language: text('language').notNull(),
  field: text('field').notNull(),
  sourceText: text('source_text').notNull(),
  text: text('text').notNull(),
  translationType: text('translation_type').notNull(),
  createdAt: timestamptz('created_at').notNull(),
});
