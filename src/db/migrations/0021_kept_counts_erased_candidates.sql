-- Kept counts (migration 0015): an erased candidate is no longer counted. Erasure is an UPDATE that
-- sets erased_at (the row stays, anonymized, so its applications keep their figures), and the
-- candidate list shows only rows where erased_at is null; 0015 counted candidates on INSERT and
-- DELETE alone, so after an erasure GET /candidates answered a totalElements one too high.
-- Candidates are now counted while erased_at is null: an update that sets (or clears) erased_at
-- moves one unit out (or in), and a delete takes away only rows still counted.

LOCK TABLE candidates IN SHARE ROW EXCLUSIVE MODE;

CREATE OR REPLACE FUNCTION candidates_kept_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO company_counts (company_id, resource, status, n)
    SELECT company_id, 'candidates', '', count(*) FROM new_rows WHERE erased_at IS NULL GROUP BY 1;
  ELSE
    INSERT INTO company_counts (company_id, resource, status, n)
    SELECT company_id, 'candidates', '', -count(*) FROM old_rows WHERE erased_at IS NULL GROUP BY 1;
  END IF;
  RETURN NULL;
END $$;

-- Transition tables cannot go with a column list (UPDATE OF erased_at), so every update statement
-- runs it; it joins only the rows the statement changed.
CREATE FUNCTION candidates_erasures_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO company_counts (company_id, resource, status, n)
  SELECT n.company_id, 'candidates', '', sum(CASE WHEN n.erased_at IS NULL THEN 1 ELSE -1 END)
  FROM old_rows o JOIN new_rows n ON n.id = o.id
  WHERE (o.erased_at IS NULL) <> (n.erased_at IS NULL)
  GROUP BY 1 HAVING sum(CASE WHEN n.erased_at IS NULL THEN 1 ELSE -1 END) <> 0;
  RETURN NULL;
END $$;
CREATE TRIGGER candidates_counts_erasure AFTER UPDATE ON candidates
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION candidates_erasures_counted();

-- Candidates erased before this migration leave the counts (writers wait on the lock above).
INSERT INTO company_counts (company_id, resource, status, n)
SELECT company_id, 'candidates', '', -count(*) FROM candidates WHERE erased_at IS NOT NULL GROUP BY 1;
