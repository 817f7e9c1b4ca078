-- 0035: notes on candidates (src/modules/notes), and who made a stage move when a person did.
--
-- A note is on a candidate, optionally on one of that candidate's applications. Its author is a
-- user or an API key (exactly one). A deleted note stays as a tombstone (deleted_at, who deleted it,
-- body gone) so the activity timeline can say it was deleted; erasing the candidate deletes the
-- rows outright (src/modules/privacy).
CREATE TABLE notes (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  candidate_id uuid NOT NULL REFERENCES candidates(id),
  application_id uuid REFERENCES applications(id) ON DELETE CASCADE,
  -- Plain text, 1 to 10,000 characters; null once the note is deleted.
  body text CHECK (body IS NULL OR char_length(body) BETWEEN 1 AND 10000),
  author_user_id uuid,
  author_api_key_id uuid,
  created_at timestamptz NOT NULL,
  -- The last edit (null: never edited). Only the author edits.
  edited_at timestamptz,
  deleted_at timestamptz,
  deleted_by_user_id uuid,
  deleted_by_api_key_id uuid,
  CHECK ((author_user_id IS NULL) <> (author_api_key_id IS NULL)),
  CHECK ((deleted_at IS NULL) = (body IS NOT NULL))
);
-- A candidate's notes and an application's, newest first (the lists and the timeline).
CREATE INDEX notes_candidate_idx ON notes(company_id, candidate_id, created_at DESC, id DESC);
CREATE INDEX notes_application_idx ON notes(company_id, application_id, created_at DESC, id DESC) WHERE application_id IS NOT NULL;

-- A stage move made by a signed-in person (the dashboard, or an application acting for them): who.
-- api_key_id keeps saying which key made a move; both null: the system (seed data).
ALTER TABLE application_status_history ADD COLUMN changed_by_user_id uuid;

-- The activity timeline (src/modules/activity) reads the recorded events of files and erasure that
-- name a candidate or an application: this partial index keeps that read to those events of the
-- company (a few), never the company's whole outbox, and costs nothing on other events' inserts.
CREATE INDEX events_activity_idx ON events(company_id, occurred_at DESC, id DESC)
  WHERE type IN ('candidate.file_added', 'candidate.file_removed', 'candidate.erased');
