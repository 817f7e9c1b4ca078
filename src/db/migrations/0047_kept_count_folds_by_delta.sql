-- The fold of the kept counts (compact_kept_counts(), run every 2 s by each worker) reads only the
-- keys that have a delta, not every row of its tables. It grouped each table whole to find the
-- keys with more than one row: listing_stage_counts holds a row per listing and stage (234,000 in
-- the bench's database), and each fold took 150-900 ms of a database core, every 2 s in every
-- worker, however few rows had changed; beside it the webhook deliveries' tail doubled.
--
-- A row now says whether it is a fold's sum (folded) or a delta appended by a trigger (the column's
-- default, so the triggers are unchanged); a partial index holds the deltas, and a fold takes the
-- keys found there, each through the key's index. Rows already there count as folded: they are
-- folded once more below, by the old function, before it is replaced.

LOCK TABLE company_counts, application_daily_counts, listing_stage_counts, application_source_counts IN SHARE ROW EXCLUSIVE MODE;

SELECT compact_kept_counts();

ALTER TABLE company_counts ADD COLUMN folded boolean NOT NULL DEFAULT true;
ALTER TABLE company_counts ALTER COLUMN folded SET DEFAULT false;
CREATE INDEX company_counts_deltas_idx ON company_counts (company_id, resource, status) WHERE NOT folded;

ALTER TABLE application_daily_counts ADD COLUMN folded boolean NOT NULL DEFAULT true;
ALTER TABLE application_daily_counts ALTER COLUMN folded SET DEFAULT false;
CREATE INDEX application_daily_counts_deltas_idx ON application_daily_counts (company_id, day, status, furthest_stage) WHERE NOT folded;

ALTER TABLE listing_stage_counts ADD COLUMN folded boolean NOT NULL DEFAULT true;
ALTER TABLE listing_stage_counts ALTER COLUMN folded SET DEFAULT false;
CREATE INDEX listing_stage_counts_deltas_idx ON listing_stage_counts (company_id, job_listing_id, status) WHERE NOT folded;

ALTER TABLE application_source_counts ADD COLUMN folded boolean NOT NULL DEFAULT true;
ALTER TABLE application_source_counts ALTER COLUMN folded SET DEFAULT false;
CREATE INDEX application_source_counts_deltas_idx ON application_source_counts (company_id, day, source) WHERE NOT folded;

-- Folds every key that has a delta: all its rows (its folded sum and its deltas) into one folded
-- row, dropping keys that sum to zero. Safe beside writers and other folds as before: it deletes
-- only rows it saw committed and re-inserts exactly their sum; deltas appended meanwhile stay for
-- the next fold, and a row another fold deleted first is skipped.
CREATE OR REPLACE FUNCTION compact_kept_counts() RETURNS void LANGUAGE sql AS $$
  WITH gone AS (
    DELETE FROM company_counts WHERE (company_id, resource, status) IN (
      SELECT company_id, resource, status FROM company_counts WHERE NOT folded)
    RETURNING company_id, resource, status, n
  )
  INSERT INTO company_counts (company_id, resource, status, n, folded)
  SELECT company_id, resource, status, sum(n), true FROM gone GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
  WITH gone AS (
    DELETE FROM application_daily_counts WHERE (company_id, day, status, furthest_stage) IN (
      SELECT company_id, day, status, furthest_stage FROM application_daily_counts WHERE NOT folded)
    RETURNING company_id, day, status, furthest_stage, n
  )
  INSERT INTO application_daily_counts (company_id, day, status, furthest_stage, n, folded)
  SELECT company_id, day, status, furthest_stage, sum(n), true FROM gone GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0;
  WITH gone AS (
    DELETE FROM listing_stage_counts WHERE (company_id, job_listing_id, status) IN (
      SELECT company_id, job_listing_id, status FROM listing_stage_counts WHERE NOT folded)
    RETURNING company_id, job_listing_id, status, n
  )
  INSERT INTO listing_stage_counts (company_id, job_listing_id, status, n, folded)
  SELECT company_id, job_listing_id, status, sum(n), true FROM gone GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
  WITH gone AS (
    DELETE FROM application_source_counts WHERE (company_id, day, source) IN (
      SELECT company_id, day, source FROM application_source_counts WHERE NOT folded)
    RETURNING company_id, day, source, n
  )
  INSERT INTO application_source_counts (company_id, day, source, n, folded)
  SELECT company_id, day, source, sum(n), true FROM gone GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
$$;

-- The planner learns that deltas are few (where autovacuum is off nothing else would tell it, and
-- the fold would scan the tables whole through a hash join).
ANALYZE company_counts, application_daily_counts, listing_stage_counts, application_source_counts;
