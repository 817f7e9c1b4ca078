-- Kept counts and aggregates: list totals and the analytics overview read these small tables
-- instead of counting millions of rows per request. Triggers write them in the same transaction as
-- every change, whatever code path writes (services, imports, cascading deletes, erasure, seeds),
-- so they always equal a recomputation (test/performance/kept-counts.test.ts proves it).
--
-- Each change appends signed delta rows; a figure is the sum of its rows. Appending locks nothing
-- another writer needs: counters updated in place would serialize every status move of a company
-- on one row and deadlock writers that touch two counters in opposite orders. compact_kept_counts()
-- (run every few seconds by the server and the worker) folds each key's rows into one, so a sum
-- reads a handful of rows. The triggers are per statement over transition tables: a 250,000-row
-- insert appends a few grouped rows, not 250,000. No foreign keys to companies: a company's
-- cascading delete would race its own rows; they fold to nothing.

LOCK TABLE job_listings, candidates, applications, application_status_history IN SHARE ROW EXCLUSIVE MODE;

-- Rows per company, resource ('job_listings', 'applications', 'candidates') and status
-- ('' for candidates, which have none).
CREATE TABLE company_counts (
  company_id uuid NOT NULL,
  resource text NOT NULL,
  status text NOT NULL,
  n bigint NOT NULL
);
CREATE INDEX company_counts_key_idx ON company_counts(company_id, resource, status);

-- The furthest funnel stage an application's history ever entered (0 ACTIVE .. 4 HIRED; -1 none
-- yet). Kept by a row trigger from the status moves; read only by SQL (not in the Drizzle table).
ALTER TABLE applications ADD COLUMN furthest_stage smallint;

CREATE FUNCTION funnel_rank(status text) RETURNS smallint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE status WHEN 'ACTIVE' THEN 0 WHEN 'IN_REVIEW' THEN 1 WHEN 'INTERVIEW' THEN 2
    WHEN 'OFFER' THEN 3 WHEN 'HIRED' THEN 4 END::smallint
$$;

-- Before any trigger exists: filled from the history of what exists already.
UPDATE applications a SET furthest_stage = coalesce(
  (SELECT max(funnel_rank(h.to_status)) FROM application_status_history h WHERE h.application_id = a.id), -1);

-- Applications per company, UTC day of submission, current stage and furthest funnel stage: the
-- overview's stages, days and funnel for any from/to range are sums over a few thousand rows.
CREATE TABLE application_daily_counts (
  company_id uuid NOT NULL,
  day date NOT NULL,
  status text NOT NULL,
  furthest_stage smallint NOT NULL,
  n bigint NOT NULL
);
CREATE INDEX application_daily_counts_key_idx ON application_daily_counts(company_id, day);

-- Applications now HIRED, with the days from submission to their (last) move into HIRED: the
-- median is read from the (company_id, days) index without sorting every hire.
CREATE TABLE application_hires (
  application_id uuid PRIMARY KEY,
  company_id uuid NOT NULL,
  applied_at timestamptz NOT NULL,
  hired_at timestamptz NOT NULL,
  days float8 NOT NULL
);
CREATE INDEX application_hires_company_days_idx ON application_hires(company_id, days);
CREATE INDEX application_hires_company_applied_idx ON application_hires(company_id, applied_at);


CREATE FUNCTION applications_furthest_stage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.furthest_stage := coalesce(NEW.furthest_stage, funnel_rank(NEW.status), -1);
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    NEW.furthest_stage := greatest(coalesce(OLD.furthest_stage, -1), coalesce(funnel_rank(NEW.status), -1));
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER applications_furthest_stage BEFORE INSERT OR UPDATE ON applications
  FOR EACH ROW EXECUTE FUNCTION applications_furthest_stage();

CREATE FUNCTION job_listings_kept_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO company_counts (company_id, resource, status, n)
    SELECT company_id, 'job_listings', status, count(*) FROM new_rows GROUP BY 1, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO company_counts (company_id, resource, status, n)
    SELECT company_id, 'job_listings', status, -count(*) FROM old_rows GROUP BY 1, 3;
  ELSE
    INSERT INTO company_counts (company_id, resource, status, n)
    SELECT company_id, 'job_listings', status, sum(d) FROM (
      SELECT o.company_id, o.status, -1 AS d FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.status <> o.status
      UNION ALL
      SELECT n.company_id, n.status, 1 FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.status <> o.status
    ) AS moves GROUP BY 1, 3 HAVING sum(d) <> 0;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER job_listings_counts_insert AFTER INSERT ON job_listings
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION job_listings_kept_counts();
CREATE TRIGGER job_listings_counts_update AFTER UPDATE ON job_listings
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION job_listings_kept_counts();
CREATE TRIGGER job_listings_counts_delete AFTER DELETE ON job_listings
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION job_listings_kept_counts();

CREATE FUNCTION candidates_kept_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO company_counts (company_id, resource, status, n)
    SELECT company_id, 'candidates', '', count(*) FROM new_rows GROUP BY 1;
  ELSE
    INSERT INTO company_counts (company_id, resource, status, n)
    SELECT company_id, 'candidates', '', -count(*) FROM old_rows GROUP BY 1;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER candidates_counts_insert AFTER INSERT ON candidates
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION candidates_kept_counts();
CREATE TRIGGER candidates_counts_delete AFTER DELETE ON candidates
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION candidates_kept_counts();

-- Applications: company_counts by status, application_daily_counts, application_hires. One
-- function per event, each reading only the transition tables its event has.
CREATE FUNCTION applications_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO company_counts (company_id, resource, status, n)
  SELECT company_id, 'applications', status, count(*) FROM new_rows GROUP BY 1, 3;
  INSERT INTO application_daily_counts (company_id, day, status, furthest_stage, n)
  SELECT company_id, (applied_at AT TIME ZONE 'UTC')::date, status, furthest_stage, count(*) FROM new_rows
  GROUP BY 1, 2, 3, 4;
  -- An application inserted as HIRED (bulk seeds) was hired at its updated_at.
  INSERT INTO application_hires (application_id, company_id, applied_at, hired_at, days)
  SELECT id, company_id, applied_at, updated_at, (extract(epoch FROM updated_at - applied_at) / 86400)::float8
  FROM new_rows WHERE status = 'HIRED'
  ON CONFLICT (application_id) DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION applications_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO company_counts (company_id, resource, status, n)
  SELECT company_id, 'applications', status, -count(*) FROM old_rows GROUP BY 1, 3;
  INSERT INTO application_daily_counts (company_id, day, status, furthest_stage, n)
  SELECT company_id, (applied_at AT TIME ZONE 'UTC')::date, status, furthest_stage, -count(*) FROM old_rows
  GROUP BY 1, 2, 3, 4;
  DELETE FROM application_hires WHERE application_id IN (SELECT id FROM old_rows WHERE status = 'HIRED');
  RETURN NULL;
END $$;

CREATE FUNCTION applications_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only rows whose counted keys changed (a status move; any other update changes nothing here).
  INSERT INTO company_counts (company_id, resource, status, n)
  SELECT company_id, 'applications', status, sum(d) FROM (
    SELECT o.company_id, o.status, -1 AS d FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.status <> o.status
    UNION ALL
    SELECT n.company_id, n.status, 1 FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.status <> o.status
  ) AS moves GROUP BY 1, 3 HAVING sum(d) <> 0;
  INSERT INTO application_daily_counts (company_id, day, status, furthest_stage, n)
  SELECT company_id, day, status, furthest_stage, sum(d) FROM (
    SELECT o.company_id, (o.applied_at AT TIME ZONE 'UTC')::date AS day, o.status, o.furthest_stage, -1 AS d
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (n.status, n.applied_at, n.furthest_stage) IS DISTINCT FROM (o.status, o.applied_at, o.furthest_stage)
    UNION ALL
    SELECT n.company_id, (n.applied_at AT TIME ZONE 'UTC')::date, n.status, n.furthest_stage, 1
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (n.status, n.applied_at, n.furthest_stage) IS DISTINCT FROM (o.status, o.applied_at, o.furthest_stage)
  ) AS moves GROUP BY 1, 2, 3, 4 HAVING sum(d) <> 0;
  -- Hires: a row leaves when it is no longer HIRED, enters when it moved into HIRED (the move's
  -- time is the row's updated_at, the same instant as its history row).
  DELETE FROM application_hires WHERE application_id IN (
    SELECT o.id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.status = 'HIRED' AND n.status <> 'HIRED');
  INSERT INTO application_hires (application_id, company_id, applied_at, hired_at, days)
  SELECT n.id, n.company_id, n.applied_at, n.updated_at, (extract(epoch FROM n.updated_at - n.applied_at) / 86400)::float8
  FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.status = 'HIRED' AND o.status <> 'HIRED'
  ON CONFLICT (application_id) DO UPDATE SET hired_at = excluded.hired_at, days = excluded.days;
  RETURN NULL;
END $$;

CREATE TRIGGER applications_counts_insert AFTER INSERT ON applications
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION applications_counts_insert();
CREATE TRIGGER applications_counts_update AFTER UPDATE ON applications
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION applications_counts_update();
CREATE TRIGGER applications_counts_delete AFTER DELETE ON applications
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION applications_counts_delete();

-- What exists already (writers wait on the lock taken above, so none is missed).

INSERT INTO company_counts (company_id, resource, status, n)
SELECT company_id, 'job_listings', status, count(*) FROM job_listings GROUP BY 1, 3
UNION ALL
SELECT company_id, 'candidates', '', count(*) FROM candidates GROUP BY 1
UNION ALL
SELECT company_id, 'applications', status, count(*) FROM applications GROUP BY 1, 3;

DELETE FROM application_daily_counts;
INSERT INTO application_daily_counts (company_id, day, status, furthest_stage, n)
SELECT company_id, (applied_at AT TIME ZONE 'UTC')::date, status, furthest_stage, count(*) FROM applications GROUP BY 1, 2, 3, 4;

DELETE FROM application_hires;
INSERT INTO application_hires (application_id, company_id, applied_at, hired_at, days)
SELECT a.id, a.company_id, a.applied_at, h.hired_at, (extract(epoch FROM h.hired_at - a.applied_at) / 86400)::float8
FROM applications a
JOIN LATERAL (SELECT max(changed_at) AS hired_at FROM application_status_history
              WHERE application_id = a.id AND to_status = 'HIRED') h ON h.hired_at IS NOT NULL
WHERE a.status = 'HIRED';

-- Folds each key's delta rows into one (dropping keys that sum to zero). Safe beside writers and
-- other compactions: it deletes only rows it saw committed and re-inserts exactly their sum; rows
-- appended meanwhile stay, and a row another compaction deleted first is skipped.
CREATE FUNCTION compact_kept_counts() RETURNS void LANGUAGE sql AS $$
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
$$;
