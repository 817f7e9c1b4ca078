-- 0039: candidate search (`q`) finds the words of a candidate's files (docs/decisions.md, "Candidate
-- search: file words and kept search totals").

-- documents (src/modules/documents/README.md): the text taken from each file, for the candidates
-- module's search, which must not name candidate_files. Only files whose text was taken (DONE).
CREATE VIEW candidate_file_texts AS
  SELECT company_id, candidate_id, created_at, extracted_text AS text FROM candidate_files
  WHERE text_status = 'DONE' AND extracted_text IS NOT NULL;

-- candidates (src/modules/candidates/README.md): the words of the candidate's files, kept by the
-- candidates module (refreshFileWords) whenever a file's text is taken or a file goes. Stripped
-- (no positions), so every word weighs D in ts_rank (0.1 against the name's 1.0 and the
-- headline's 0.4) and counts once however often a résumé repeats it.
ALTER TABLE candidates ADD COLUMN file_words tsvector NOT NULL DEFAULT ''::tsvector;

-- The search vector takes them: one vector and one index (company, words) for every word a
-- candidate is found by. A generated column's expression cannot be altered on PostgreSQL 15, so the
-- column is made again (and its index with it).
CREATE FUNCTION candidate_search_vector(first_name text, last_name text, email text, headline text, skills text[], file_words tsvector)
RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT setweight(to_tsvector('simple'::regconfig, coalesce(first_name, '') || ' ' || coalesce(last_name, '')), 'A')
      || setweight(to_tsvector('simple'::regconfig, coalesce(email, '')), 'A')
      || setweight(to_tsvector('simple'::regconfig, coalesce(headline, '')), 'B')
      || setweight(to_tsvector('simple'::regconfig, coalesce(array_to_string(skills, ' '), '')), 'B')
      || coalesce(file_words, ''::tsvector)
$$;

ALTER TABLE candidates DROP COLUMN search_vector;
ALTER TABLE candidates ADD COLUMN search_vector tsvector NOT NULL
  GENERATED ALWAYS AS (candidate_search_vector(first_name, last_name, email, headline, skills, file_words)) STORED;
CREATE INDEX candidates_company_search_idx ON candidates USING gin (company_id, search_vector);
DROP FUNCTION candidate_search_vector(text, text, text, text, text[]);

-- Kept search changes: every statement that changes what a company's searches can match (a
-- candidate added or deleted, its words changed, its erasure) appends +1 for the company, in its
-- transaction, to the kept counts (resource 'candidate_search_changes'). The sum is the company's
-- search generation: two snapshots that read the same sum see the same candidates' words, so a
-- search's total counted in one holds in the other (the candidates module keeps them, repo.ts).
CREATE FUNCTION candidates_search_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO company_counts (company_id, resource, status, n)
    SELECT DISTINCT company_id, 'candidate_search_changes', '', 1 FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO company_counts (company_id, resource, status, n)
    SELECT DISTINCT company_id, 'candidate_search_changes', '', 1 FROM old_rows;
  ELSE
    INSERT INTO company_counts (company_id, resource, status, n)
    SELECT DISTINCT n.company_id, 'candidate_search_changes', '', 1
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.search_vector IS DISTINCT FROM n.search_vector OR (o.erased_at IS NULL) <> (n.erased_at IS NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER candidates_search_changes_insert AFTER INSERT ON candidates
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION candidates_search_changes();
CREATE TRIGGER candidates_search_changes_update AFTER UPDATE ON candidates
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION candidates_search_changes();
CREATE TRIGGER candidates_search_changes_delete AFTER DELETE ON candidates
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION candidates_search_changes();
