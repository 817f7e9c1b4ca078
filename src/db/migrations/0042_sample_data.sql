-- 0042: sample data (src/modules/sample-data/README.md). One row per company that filled itself
-- with sample data ("Explore with sample data" in the dashboard), naming the listings and
-- candidates the fill made, so that removing it deletes exactly those and nothing the company made
-- itself. The row is written first by the fill's transaction: a second fill waits on its key and
-- then finds it (409). No row: the company has no sample data.

CREATE TABLE sample_data_sets (
  company_id uuid PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
  filled_at timestamptz NOT NULL,
  -- The person who filled it (an ADMIN of the company); null once that user is gone.
  filled_by_user_id uuid,
  job_listing_ids uuid[] NOT NULL DEFAULT '{}',
  candidate_ids uuid[] NOT NULL DEFAULT '{}'
);
