-- Kept counts (migration 0015): an update's status moves reach company_counts through one trigger
-- function, count_status_moves(<resource>), shared by job listings and applications, instead of the
-- same union written in each table's update function. It is a trigger of its own rather than a
-- function the update functions call: a statement's transition tables (old_rows, new_rows) are
-- visible only in the trigger function itself, not in functions it calls. What is counted does
-- not change: a row whose status changed moves one unit from its old status to its new one.

LOCK TABLE job_listings, applications IN SHARE ROW EXCLUSIVE MODE;

CREATE FUNCTION count_status_moves() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO company_counts (company_id, resource, status, n)
  SELECT company_id, TG_ARGV[0], status, sum(d) FROM (
    SELECT o.company_id, o.status, -1 AS d FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.status <> o.status
    UNION ALL
    SELECT n.company_id, n.status, 1 FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE n.status <> o.status
  ) AS moves GROUP BY company_id, status HAVING sum(d) <> 0;
  RETURN NULL;
END $$;

-- Job listings: the update trigger is the shared function; the table's own function keeps insert
-- and delete.
CREATE OR REPLACE TRIGGER job_listings_counts_update AFTER UPDATE ON job_listings
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_status_moves('job_listings');

CREATE OR REPLACE FUNCTION job_listings_kept_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO company_counts (company_id, resource, status, n)
    SELECT company_id, 'job_listings', status, count(*) FROM new_rows GROUP BY 1, 3;
  ELSE
    INSERT INTO company_counts (company_id, resource, status, n)
    SELECT company_id, 'job_listings', status, -count(*) FROM old_rows GROUP BY 1, 3;
  END IF;
  RETURN NULL;
END $$;

-- Applications: the shared function counts the status moves; the table's update function keeps
-- what only applications have (the daily aggregates and the hires).
CREATE TRIGGER applications_status_moves AFTER UPDATE ON applications
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_status_moves('applications');

CREATE OR REPLACE FUNCTION applications_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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
