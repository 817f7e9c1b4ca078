-- Kept counts (migrations 0015, 0017): an application's update is counted by one row trigger
-- instead of two statement triggers over transition tables. Every code path updates applications
-- one row at a time (a status move, an erasure), and for one row the statement triggers cost more
-- than the work they do: capturing both transition tables, joining them four times, and starting
-- five statements' executors, about 460,000 of a move's 1,590,000 PostgreSQL instructions; the row
-- trigger below costs about 200,000 (callgrind, docs/decisions.md "Instruction counts beside
-- rates"). What is counted does not change: a row whose status changed moves one unit from its old
-- status to its new one in company_counts; a row whose (status, applied_at, furthest_stage) changed moves one unit
-- between its daily-aggregate keys; application_hires follows moves into and out of HIRED, and now
-- also a HIRED row's corrected submission time (its days to hire). A bulk UPDATE of many rows (no
-- API operation makes one) appends two delta rows per row and key; the compaction folds them as it
-- folds every other delta.
--
-- `UPDATE OF` the counted columns: an update that sets none of them (an erasure's cover letter)
-- does not call the function at all; one that sets them without changing them returns at once.
-- furthest_stage is set by the BEFORE trigger when status changes, so status names it here.

LOCK TABLE applications IN SHARE ROW EXCLUSIVE MODE;

DROP TRIGGER applications_counts_update ON applications;
DROP TRIGGER applications_status_moves ON applications;
DROP FUNCTION applications_counts_update();

CREATE FUNCTION applications_kept_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.company_id, NEW.status, NEW.applied_at, NEW.furthest_stage)
     IS NOT DISTINCT FROM (OLD.company_id, OLD.status, OLD.applied_at, OLD.furthest_stage) THEN
    RETURN NULL;
  END IF;
  IF (NEW.company_id, NEW.status) IS DISTINCT FROM (OLD.company_id, OLD.status) THEN
    INSERT INTO company_counts (company_id, resource, status, n)
    VALUES (OLD.company_id, 'applications', OLD.status, -1), (NEW.company_id, 'applications', NEW.status, 1);
  END IF;
  INSERT INTO application_daily_counts (company_id, day, status, furthest_stage, n)
  VALUES (OLD.company_id, (OLD.applied_at AT TIME ZONE 'UTC')::date, OLD.status, OLD.furthest_stage, -1),
         (NEW.company_id, (NEW.applied_at AT TIME ZONE 'UTC')::date, NEW.status, NEW.furthest_stage, 1);
  -- Hires: the row leaves when it is no longer HIRED, enters when it moved into HIRED (the move's
  -- time is the row's updated_at, the same instant as its history row), and follows a correction
  -- of its submission time while HIRED (the statement triggers before missed that one).
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

CREATE TRIGGER applications_kept_counts_update AFTER UPDATE OF company_id, status, applied_at, furthest_stage ON applications
  FOR EACH ROW EXECUTE FUNCTION applications_kept_counts_update();

-- Hires whose submission time was corrected while HIRED, before this trigger followed them.
UPDATE application_hires h
SET company_id = a.company_id, applied_at = a.applied_at, days = (extract(epoch FROM h.hired_at - a.applied_at) / 86400)::float8
FROM applications a
WHERE a.id = h.application_id AND (a.company_id, a.applied_at) IS DISTINCT FROM (h.company_id, h.applied_at);
