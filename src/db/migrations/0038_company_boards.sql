-- 0038: the public job board and careers pages (issue 29). One row per company that set up its
-- board, owned by the companies module (docs/decisions.md, "Public job board"). No row, or
-- enabled false: the board answers 404. A board can be on only with a slug.

CREATE TABLE company_boards (
  company_id uuid PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
  -- Lower-case letters, digits and single hyphens, 3 to 50 characters (reserved words refused by
  -- the service); unique across companies: it is the board's public address.
  slug text UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND char_length(slug) BETWEEN 3 AND 50),
  enabled boolean NOT NULL DEFAULT false,
  public_name text CHECK (char_length(public_name) BETWEEN 1 AND 200),
  -- Intro text per language: {"en": "...", "de": "..."} (BCP 47 tags as keys).
  intro jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The logo's key in the file store and its type (decided from its bytes): both or neither.
  logo_key text,
  logo_content_type text,
  accent_color text CHECK (accent_color ~ '^#[0-9a-f]{6}$'),
  privacy_policy_url text CHECK (char_length(privacy_policy_url) <= 2000),
  show_salary boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL,
  CHECK (NOT enabled OR slug IS NOT NULL),
  CHECK ((logo_key IS NULL) = (logo_content_type IS NULL))
);

-- A résumé sent through the board or the careers pages is uploaded by the candidate themself.
ALTER TABLE candidate_files DROP CONSTRAINT candidate_files_uploaded_by_type_check;
ALTER TABLE candidate_files ADD CONSTRAINT candidate_files_uploaded_by_type_check
  CHECK (uploaded_by_type IN ('USER', 'API_KEY', 'CANDIDATE'));

-- A board lists a company's ACTIVE listings newest first (job-listings repo, listActiveListingRows).
CREATE INDEX job_listings_company_active_idx ON job_listings(company_id, created_at DESC, id DESC) WHERE status = 'ACTIVE';
