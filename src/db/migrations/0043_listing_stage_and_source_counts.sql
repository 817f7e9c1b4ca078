-- Kept counts (migrations 0015, 0023) for the dashboard's listings and the overview's sources:
-- - listing_stage_counts: applications per company, listing and current stage, so the listings
--   page shows each listing's applicants per stage from a few rows per listing, never a count
--   over its applications (GET /public/v1/analytics/job-listings);
-- - application_source_counts: applications per company, UTC day of submission and source, so the
--   overview's applicationsBySource for any from..to is a sum over a few rows a day.
-- Signed deltas appended by the same triggers as the other kept counts, in the same transaction
-- as every change, folded by compact_kept_counts() (replaced below with the two new folds). The
-- functions are replaced, not joined by new triggers: a status move still starts one row trigger.

LOCK TABLE applications IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE listing_stage_counts (
  company_id uuid NOT NULL,
  job_listing_id uuid NOT NULL,
  status text NOT NULL,
  n bigint NOT NULL
);
CREATE INDEX listing_stage_counts_key_idx ON listing_stage_counts(company_id, job_listing_id, status);

CREATE TABLE application_source_counts (
  company_id uuid NOT NULL,
  day date NOT NULL,
  source text NOT NULL,
  n bigint NOT NULL
);
CREATE INDEX application_source_counts_key_idx ON application_source_counts(company_id, day, source);

CREATE OR REPLACE FUNCTION applications_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO company_counts (company_id, resource, status, n)
  SELECT company_id, 'applications', status, count(*) FROM new_rows GROUP BY 1, 3;
  INSERT INTO application_daily_counts (company_id, day, status, furthest_stage, n)
  SELECT company_id, (applied_at AT TIME ZONE 'UTC')::date, status, furthest_stage, count(*) FROM new_rows
  GROUP BY 1, 2, 3, 4;
  INSERT INTO listing_stage_counts (company_id, job_listing_id, status, n)
  SELECT company_id, job_listing_id, status, count(*) FROM new_rows GROUP BY 1, 2, 3;
  INSERT INTO application_source_counts (company_id, day, source, n)
  SELECT company_id, (applied_at AT TIME ZONE 'UTC')::date, source, count(*) FROM new_rows GROUP BY 1, 2, 3;
  -- An application inserted as HIRED (bulk seeds) was hired at its updated_at.
  INSERT INTO application_hires (application_id, company_id, applied_at, hired_at, days)
  SELECT id, company_id, applied_at, updated_at, (extract(epoch FROM updated_at - applied_at) / 86400)::float8
  FROM new_rows WHERE status = 'HIRED'
  ON CONFLICT (application_id) DO NOTHING;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION applications_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO company_counts (company_id, resource, status, n)
  SELECT company_id, 'applications', status, -count(*) FROM old_rows GROUP BY 1, 3;
  INSERT INTO application_daily_counts (company_id, day, status, furthest_stage, n)
  SELECT company_id, (applied_at AT TIME ZONE 'UTC')::date, status, furthest_stage, -count(*) FROM old_rows
  GROUP BY 1, 2, 3, 4;
  INSERT INTO listing_stage_counts (company_id, job_listing_id, status, n)
  SELECT company_id, job_listing_id, status, -count(*) FROM old_rows GROUP BY 1, 2, 3;
  INSERT INTO application_source_counts (company_id, day, source, n)
  SELECT company_id, (applied_at AT TIME ZONE 'UTC')::date, source, -count(*) FROM old_rows GROUP BY 1, 2, 3;
  DELETE FROM application_hires WHERE application_id IN (SELECT id FROM old_rows WHERE status = 'HIRED');
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION applications_kept_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.company_id, NEW.job_listing_id, NEW.status, NEW.source, NEW.applied_at, NEW.furthest_stage)
     IS NOT DISTINCT FROM (OLD.company_id, OLD.job_listing_id, OLD.status, OLD.source, OLD.applied_at, OLD.furthest_stage) THEN
    RETURN NULL;
  END IF;
  IF (NEW.company_id, NEW.status) IS DISTINCT FROM (OLD.company_id, OLD.status) THEN
    INSERT INTO company_counts (company_id, resource, status, n)
    VALUES (OLD.company_id, 'applications', OLD.status, -1), (NEW.company_id, 'applications', NEW.status, 1);
  END IF;
  IF (NEW.company_id, NEW.job_listing_id, NEW.status) IS DISTINCT FROM (OLD.company_id, OLD.job_listing_id, OLD.status) THEN
    INSERT INTO listing_stage_counts (company_id, job_listing_id, status, n)
    VALUES (OLD.company_id, OLD.job_listing_id, OLD.status, -1), (NEW.company_id, NEW.job_listing_id, NEW.status, 1);
  END IF;
  IF (NEW.company_id, NEW.status, NEW.applied_at, NEW.furthest_stage)
     IS DISTINCT FROM (OLD.company_id, OLD.status, OLD.applied_at, OLD.furthest_stage) THEN
    INSERT INTO application_daily_counts (company_id, day, status, furthest_stage, n)
    VALUES (OLD.company_id, (OLD.applied_at AT TIME ZONE 'UTC')::date, OLD.status, OLD.furthest_stage, -1),
           (NEW.company_id, (NEW.applied_at AT TIME ZONE 'UTC')::date, NEW.status, NEW.furthest_stage, 1);
  END IF;
  IF (NEW.company_id, NEW.source, (NEW.applied_at AT TIME ZONE 'UTC')::date)
     IS DISTINCT FROM (OLD.company_id, OLD.source, (OLD.applied_at AT TIME ZONE 'UTC')::date) THEN
    INSERT INTO application_source_counts (company_id, day, source, n)
    VALUES (OLD.company_id, (OLD.applied_at AT TIME ZONE 'UTC')::date, OLD.source, -1),
           (NEW.company_id, (NEW.applied_at AT TIME ZONE 'UTC')::date, NEW.source, 1);
  END IF;
  -- Hires, as migration 0023 keeps them.
  IF OLD.status = 'HIRED' AND NEW.status <> 'HIRED' THEN
    DELETE FROM application_hires WHERE application_id = OLD.id;
  ELSIF NEW.status = 'HIRED' AND OLD.status <> 'HIRED' THEN
    INSERT INTO application_hires (application_id, company_id, applied_at, hired_at, days)
    VALUES (NEW.id, NEW.company_id, NEW.applied_at, NEW.updated_at,
            (extract(epoch FROM NEW.updated_at - NEW.applied_at) / 86400)::float8)
    ON CONFLICT (application_id) DO UPDATE SET hired_at = excluded.hired_at, days = excluded.days;
  ELSIF NEW.status = 'HIRED' AND (NEW.company_id, NEW.applied_at) IS DISTINCT FROM (OLD.company_id, OLD.applied_at) THEN
    UPDATE application_hires
    SET company_id = NEW.company_id, applied_at = NEW.applied_at,
        days = (extract(epoch FROM hired_at - NEW.applied_at) / 86400)::float8
    WHERE application_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER applications_kept_counts_update
  AFTER UPDATE OF company_id, job_listing_id, status, source, applied_at, furthest_stage ON applications
  FOR EACH ROW EXECUTE FUNCTION applications_kept_counts_update();

CREATE OR REPLACE FUNCTION compact_kept_counts() RETURNS void LANGUAGE sql AS $$
  WITH gone AS (
    DELETE FROM company_counts WHERE (company_id, resource, status) IN (
      SELECT company_id, resource, status FROM company_counts GROUP BY 1, 2, 3 HAVING count(*) > 1 OR sum(n) = 0)
    RETURNING company_id, resource, status, n
  )
  INSERT INTO company_counts (company_id, resource, status, n)
  SELECT company_id, resource, status, sum(n) FROM gone GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
  WITH gone AS (
    DELETE FROM application_daily_counts WHERE (company_id, day, status, furthest_stage) IN (
      SELECT company_id, day, status, furthest_stage FROM application_daily_counts GROUP BY 1, 2, 3, 4
      HAVING count(*) > 1 OR sum(n) = 0)
    RETURNING company_id, day, status, furthest_stage, n
  )
  INSERT INTO application_daily_counts (company_id, day, status, furthest_stage, n)
  SELECT company_id, day, status, furthest_stage, sum(n) FROM gone GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0;
  WITH gone AS (
    DELETE FROM listing_stage_counts WHERE (company_id, job_listing_id, status) IN (
      SELECT company_id, job_listing_id, status FROM listing_stage_counts GROUP BY 1, 2, 3 HAVING count(*) > 1 OR sum(n) = 0)
    RETURNING company_id, job_listing_id, status, n
  )
  INSERT INTO listing_stage_counts (company_id, job_listing_id, status, n)
  SELECT company_id, job_listing_id, status, sum(n) FROM gone GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
  WITH gone AS (
    DELETE FROM application_source_counts WHERE (company_id, day, source) IN (
      SELECT company_id, day, source FROM application_source_counts GROUP BY 1, 2, 3 HAVING count(*) > 1 OR sum(n) = 0)
    RETURNING company_id, day, source, n
  )
  INSERT INTO application_source_counts (company_id, day, source, n)
  SELECT company_id, day, source, sum(n) FROM gone GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
$$;

-- What exists already (writers wait on the lock taken above, so none is missed).
INSERT INTO listing_stage_counts (company_id, job_listing_id, status, n)
SELECT company_id, job_listing_id, status, count(*) FROM applications GROUP BY 1, 2, 3;
INSERT INTO application_source_counts (company_id, day, source, n)
SELECT company_id, (applied_at AT TIME ZONE 'UTC')::date, source, count(*) FROM applications GROUP BY 1, 2, 3;

-- applications (src/modules/applications/README.md): the source joins the published summary, for
-- the overview of one listing (a whole company's comes from application_source_counts).
CREATE OR REPLACE VIEW application_summaries AS
  SELECT id, company_id, job_listing_id, status, applied_at, rejection_reason_id, source FROM applications;
