-- Companies (tenants), their API keys, and the transactional outbox of domain events.

CREATE TABLE companies (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  default_language text NOT NULL DEFAULT 'en',
  requires_listing_review boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  label text NOT NULL,
  key_prefix text NOT NULL,
  -- SHA-256 of the full key, hex: the key itself is never stored.
  key_hash text NOT NULL UNIQUE,
  scopes text[] NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX api_keys_company_idx ON api_keys(company_id, created_at DESC, id DESC);

-- Written in the same transaction as the change that caused the event; the webhook worker
-- reads undispatched rows from here, so an event can be neither lost nor sent for a rollback.
CREATE TABLE events (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  type text NOT NULL,
  data jsonb NOT NULL,
  occurred_at timestamptz NOT NULL,
  dispatched_at timestamptz
);
CREATE INDEX events_undispatched_idx ON events(occurred_at, id) WHERE dispatched_at IS NULL;
CREATE INDEX events_company_idx ON events(company_id, occurred_at DESC);
