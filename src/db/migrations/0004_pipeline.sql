-- The hiring pipeline: candidates (with full-text search), applications of candidates to job
-- listings, and the history of every stage move.

-- Text a candidate is found by: name and email weigh most, then headline and skills. 'simple' keeps
-- every word as written (lower-cased, no stemming, no stop words): names, emails and skills such as
-- "Go" or "C++" are not English prose, and 'simple' behaves the same on every PostgreSQL and PGlite.
-- A function because a generated column may use only IMMUTABLE expressions and array_to_string is
-- merely STABLE in general (it is immutable for text[], which is all it gets here).
CREATE FUNCTION candidate_search_vector(first_name text, last_name text, email text, headline text, skills text[])
RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT setweight(to_tsvector('simple'::regconfig, coalesce(first_name, '') || ' ' || coalesce(last_name, '')), 'A')
      || setweight(to_tsvector('simple'::regconfig, coalesce(email, '')), 'A')
      || setweight(to_tsvector('simple'::regconfig, coalesce(headline, '')), 'B')
      || setweight(to_tsvector('simple'::regconfig, coalesce(array_to_string(skills, ' '), '')), 'B')
$$;

CREATE TABLE candidates (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  phone text,
  headline text,
  location text,
  skills text[] NOT NULL DEFAULT '{}',
  links text[] NOT NULL DEFAULT '{}',
  -- How the candidate first reached the company (EXTERNAL, IMPORTED, ...).
  source text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  search_vector tsvector NOT NULL
    GENERATED ALWAYS AS (candidate_search_vector(first_name, last_name, email, headline, skills)) STORED
);
-- One candidate per email within a company, whatever the letter case: applications and imports
-- match (upsert) on it.
CREATE UNIQUE INDEX candidates_company_email_idx ON candidates(company_id, lower(email));
CREATE INDEX candidates_company_created_idx ON candidates(company_id, created_at DESC, id DESC);
CREATE INDEX candidates_company_updated_idx ON candidates(company_id, updated_at);
CREATE INDEX candidates_search_idx ON candidates USING gin (search_vector);

CREATE TABLE applications (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  job_listing_id uuid NOT NULL REFERENCES job_listings(id),
  candidate_id uuid NOT NULL REFERENCES candidates(id),
  status text NOT NULL CHECK (status IN ('ACTIVE','IN_REVIEW','INTERVIEW','OFFER','HIRED','REJECTED','WITHDRAWN')),
  source text NOT NULL,
  cover_letter text,
  applied_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- A candidate applies to a listing once; a second application answers 409 with this one's id.
  UNIQUE (job_listing_id, candidate_id)
);
-- The list order (newest first, id breaks ties) and its filters, within a company.
CREATE INDEX applications_company_applied_idx ON applications(company_id, applied_at DESC, id DESC);
CREATE INDEX applications_company_listing_idx ON applications(company_id, job_listing_id, applied_at DESC);
CREATE INDEX applications_company_status_idx ON applications(company_id, status);
CREATE INDEX applications_company_updated_idx ON applications(company_id, updated_at);
CREATE INDEX applications_candidate_idx ON applications(candidate_id, applied_at DESC);

-- Every stage an application entered, the first (from_status null) included: the record of who
-- moved where and why, and the source of the funnel and time-to-hire analytics.
CREATE TABLE application_status_history (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
  from_status text,
  to_status text NOT NULL,
  reason text,
  -- The API key that made the move (null: the system, e.g. seed data).
  api_key_id uuid,
  changed_at timestamptz NOT NULL
);
CREATE INDEX application_status_history_application_idx ON application_status_history(application_id, changed_at DESC, id DESC);
CREATE INDEX application_status_history_company_idx ON application_status_history(company_id, to_status);
