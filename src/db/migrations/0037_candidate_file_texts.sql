-- 0037: the text taken from a candidate's file (src/modules/documents/README.md), by the scheduled
-- work after the upload, never in the request: PENDING until then; DONE with the text and the
-- contact details found in it; NONE for a type text is not taken from; FAILED when the file could
-- not be read in its time and memory (not tried again).
ALTER TABLE candidate_files
  ADD COLUMN text_status text NOT NULL DEFAULT 'PENDING' CHECK (text_status IN ('PENDING', 'DONE', 'NONE', 'FAILED')),
  ADD COLUMN extracted_text text,
  ADD COLUMN contact_suggestions jsonb;

-- Files already stored before this migration are read too.
CREATE INDEX candidate_files_text_pending_idx ON candidate_files (created_at) WHERE text_status = 'PENDING';
