-- 0003_job_listings: job listings, their child collections (skills, benefits, hiring process steps,
-- tag links, requirements) and their translations.
--
-- Translatable texts are stored once, as written, in the listing's source `language`. Translations
-- live in job_listing_translations keyed by (language, field, the source text they translate): an
-- edit to a text therefore retires its translations by itself, without bookkeeping, and a HUMAN
-- and an AI translation of the same text can coexist (HUMAN wins when both exist).

CREATE TABLE job_listings (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('DRAFT','ACTIVE','UNDER_REVIEW','CLOSED','ARCHIVED')),
  -- BCP 47 tag of the language the texts are written in.
  language text NOT NULL,
  sector_id uuid REFERENCES sectors(id),
  position text NOT NULL,
  position_type text NOT NULL CHECK (position_type IN ('FULL_TIME','PART_TIME','CONTRACT','SELF_EMPLOYED','INTERNSHIP')),
  work_place_type text NOT NULL CHECK (work_place_type IN ('REMOTE','ON_SITE','HYBRID')),
  address_street text,
  address_city text,
  address_state text,
  address_country text,
  address_postal_code text,
  address_latitude double precision,
  address_longitude double precision,
  is_start_date boolean,
  start_date date,
  job_description text,
  requirements_summary text,
  personal_qualities_summary text,
  currency text,
  -- numeric keeps salaries exact (no binary floating point for money).
  salary_base numeric,
  is_salary_max boolean,
  salary_max numeric,
  salary_type text,
  payment_interval text,
  salary_description text,
  education_level text,
  field_of_study text,
  years_of_experience integer,
  available_for_every_country boolean,
  number_of_positions_opened integer,
  job_listing_end_date date,
  reference_number text,
  -- Set when a reviewer rejects the listing (back to DRAFT); cleared on the next publish.
  rejection_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  published_at timestamptz,
  -- When the listing last became ACTIVE (first publish, approval, reopening): without an end
  -- date, expires_at is 60 days after it.
  activated_at timestamptz,
  expires_at timestamptz,
  closed_at timestamptz,
  CHECK (salary_max IS NULL OR salary_base IS NULL OR salary_max >= salary_base)
);
-- The list order (newest first, id breaks ties) within a company.
CREATE INDEX job_listings_company_created_idx ON job_listings(company_id, created_at DESC, id DESC);
-- updatedSince sync queries.
CREATE INDEX job_listings_company_updated_idx ON job_listings(company_id, updated_at);
-- The expiry sweep looks only at ACTIVE listings, oldest expiry first.
CREATE INDEX job_listings_expiry_idx ON job_listings(expires_at) WHERE status = 'ACTIVE';

CREATE TABLE job_listing_skills (
  id uuid PRIMARY KEY,
  job_listing_id uuid NOT NULL REFERENCES job_listings(id) ON DELETE CASCADE,
  sort_order integer NOT NULL,
  value text NOT NULL,
  type text,
  expert_type text,
  language_proficiency text,
  driving_class text
);
CREATE INDEX job_listing_skills_listing_idx ON job_listing_skills(job_listing_id, sort_order);

CREATE TABLE job_listing_benefits (
  id uuid PRIMARY KEY,
  job_listing_id uuid NOT NULL REFERENCES job_listings(id) ON DELETE CASCADE,
  sort_order integer NOT NULL,
  value text NOT NULL
);
CREATE INDEX job_listing_benefits_listing_idx ON job_listing_benefits(job_listing_id, sort_order);

CREATE TABLE job_listing_hiring_steps (
  id uuid PRIMARY KEY,
  job_listing_id uuid NOT NULL REFERENCES job_listings(id) ON DELETE CASCADE,
  step_order integer NOT NULL,
  step_name text NOT NULL,
  description text
);
CREATE INDEX job_listing_hiring_steps_listing_idx ON job_listing_hiring_steps(job_listing_id, step_order);

CREATE TABLE job_listing_tags (
  id uuid PRIMARY KEY,
  job_listing_id uuid NOT NULL REFERENCES job_listings(id) ON DELETE CASCADE,
  tag_id uuid NOT NULL REFERENCES tags(id),
  UNIQUE (job_listing_id, tag_id)
);
CREATE INDEX job_listing_tags_tag_idx ON job_listing_tags(tag_id);

CREATE TABLE job_listing_requirements (
  id uuid PRIMARY KEY,
  job_listing_id uuid NOT NULL REFERENCES job_listings(id) ON DELETE CASCADE,
  sort_order integer NOT NULL,
  requirement_text text NOT NULL
);
CREATE INDEX job_listing_requirements_listing_idx ON job_listing_requirements(job_listing_id, sort_order);

CREATE TABLE job_listing_translations (
  id uuid PRIMARY KEY,
  job_listing_id uuid NOT NULL REFERENCES job_listings(id) ON DELETE CASCADE,
  -- BCP 47 tag of the translation.
  language text NOT NULL,
  -- Which kind of text: position, jobDescription, ..., benefits, skills, hiringProcessSteps.stepName.
  field text NOT NULL,
  -- The original text this translates; a translation applies only while the original is unchanged.
  source_text text NOT NULL,
  text text NOT NULL,
  translation_type text NOT NULL CHECK (translation_type IN ('HUMAN','AI')),
  created_at timestamptz NOT NULL
);
-- md5 keeps the key small whatever the length of the text (btree entries are size-limited).
CREATE UNIQUE INDEX job_listing_translations_key
  ON job_listing_translations(job_listing_id, language, translation_type, field, md5(source_text));
