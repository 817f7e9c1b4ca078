-- Responses kept for Idempotency-Key replays (24 hours). status_code is null while the first
-- request is still running.
CREATE TABLE idempotency_keys (
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  idempotency_key text NOT NULL,
  request_hash text NOT NULL,
  status_code integer,
  response_body text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, idempotency_key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys(created_at);
