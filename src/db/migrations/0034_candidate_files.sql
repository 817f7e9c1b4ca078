-- 0034: candidate documents (src/modules/documents/README.md). The bytes live in the file store
-- (src/adapters/file-store), never in the database; a row here is a file's metadata and its
-- storage key.
CREATE TABLE candidate_files (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  candidate_id uuid NOT NULL REFERENCES candidates(id),
  -- Optional; the service checks it is an application of the same candidate.
  application_id uuid REFERENCES applications(id),
  kind text NOT NULL CHECK (kind IN ('RESUME', 'COVER_LETTER', 'PORTFOLIO', 'OTHER')),
  file_name text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  -- Decided from the bytes, never from what the client said.
  content_type text NOT NULL,
  storage_key text NOT NULL UNIQUE,
  -- Who uploaded it: a user (USER) or an API key (API_KEY), and the label shown for them then.
  uploaded_by_type text NOT NULL CHECK (uploaded_by_type IN ('USER', 'API_KEY')),
  uploaded_by_id uuid,
  uploaded_by_label text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE INDEX candidate_files_candidate_idx ON candidate_files (company_id, candidate_id, created_at DESC, id DESC);

-- Objects of the file store that must go: written before an upload starts (due an hour later, the
-- upload's commit removes it), and by a delete or an erasure in its own transaction (due at once).
-- The store's delete runs after the commit; the scheduled work retries what is left, so a crash
-- between the two never leaves an object no row knows about.
CREATE TABLE candidate_file_deletions (
  storage_key text PRIMARY KEY,
  due_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL
);

CREATE INDEX candidate_file_deletions_due_idx ON candidate_file_deletions (due_at);

-- applications (src/modules/applications/README.md): which candidate an application is of, for
-- modules that must check an application belongs to a candidate (documents) without naming the table.
CREATE VIEW application_candidates AS
  SELECT id, company_id, candidate_id FROM applications;
