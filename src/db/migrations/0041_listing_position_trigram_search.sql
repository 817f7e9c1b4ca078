-- 0041: the listings' position search (`q` of the listings list, the job board and the careers
-- pages: job-listings repo, positionContains) is index-supported. `ILIKE '%q%'` read every listing
-- of the company and probed its translations row by row; trigram indexes answer it instead: one
-- over (company_id, position) (btree_gin, migration 0022, gives uuid its GIN operator class: a
-- small company's search costs what its own listings cost), one over the translations of the
-- position field (translations have no company; the search joins them back to their listing).
-- A pattern of fewer than 3 characters has no trigram: the planner reads the rows as before.
-- pg_trgm is a trusted extension: the database's owner may create it (PGlite loads it,
-- src/db/embedded.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX job_listings_company_position_trgm_idx ON job_listings USING gin (company_id, position gin_trgm_ops);
CREATE INDEX job_listing_translations_position_trgm_idx ON job_listing_translations USING gin (text gin_trgm_ops) WHERE field = 'position';
