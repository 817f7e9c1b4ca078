-- Machine translations are made on the write path, never during a read (docs/decisions.md,
-- "Translated text"). A write that changes a listing's texts marks the listing here, in its own
-- transaction, so the work cannot be lost; the request then translates at once, and the scheduled
-- sweep retries what failed (the translator down, a language it cannot do yet). NULL: nothing due.
ALTER TABLE job_listings ADD COLUMN machine_translation_due_at timestamptz;
CREATE INDEX job_listings_machine_translation_due_idx
  ON job_listings(machine_translation_due_at) WHERE machine_translation_due_at IS NOT NULL;
