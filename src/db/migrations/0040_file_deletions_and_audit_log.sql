-- 0040: documents (src/modules/documents/README.md). Every deleted candidate_files row marks its
-- stored object for deletion in the deleting transaction, whoever deletes it: the documents
-- module's own deletes and erasures already mark their keys, but removing a company (an operator's
-- DELETE FROM companies, cascading to its files' rows) runs no TypeScript that could, and would
-- leave every object of the company's files in the store. The mark is due at once; the scheduled
-- work's sweep ("delete stored files") deletes the objects and retries failures, as for an erasure.
CREATE FUNCTION candidate_files_mark_deleted_objects() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO candidate_file_deletions (storage_key, due_at, attempts, created_at)
    SELECT storage_key, now(), 0, now() FROM deleted_files
  ON CONFLICT (storage_key) DO UPDATE SET due_at = least(candidate_file_deletions.due_at, excluded.due_at);
  RETURN NULL;
END;
$$;

CREATE TRIGGER candidate_files_deleted
  AFTER DELETE ON candidate_files
  REFERENCING OLD TABLE AS deleted_files
  FOR EACH STATEMENT EXECUTE FUNCTION candidate_files_mark_deleted_objects();

-- audit (src/modules/audit/README.md): the company's audit log, append-only. One row per
-- administrative action (keys, members, invitations, webhooks, publishing, erasure), written by the
-- action's own transaction, so the log holds exactly what committed. The actor's and the target's
-- labels are kept as they were then; nothing here is updated or expires with the outbox.
CREATE TABLE audit_entries (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  occurred_at timestamptz NOT NULL,
  actor_type text NOT NULL CHECK (actor_type IN ('USER', 'API_KEY', 'SYSTEM')),
  actor_id uuid,
  actor_label text NOT NULL,
  action text NOT NULL,
  target_type text NOT NULL,
  target_id uuid,
  target_label text,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb
);

CREATE INDEX audit_entries_company_idx ON audit_entries (company_id, occurred_at DESC, id DESC);
