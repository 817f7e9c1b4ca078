-- Identity: users, their memberships in companies, and the authorization server's storage
-- (oidc-provider's artifacts, and its signing and cookie keys).

CREATE TABLE users (
  id uuid PRIMARY KEY,
  -- Lower-cased; only ever set from a verified e-mail address.
  email text NOT NULL UNIQUE,
  name text,
  picture text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE memberships (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('ADMIN', 'MEMBER')),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, company_id)
);
CREATE INDEX memberships_company_idx ON memberships(company_id);

-- Every oidc-provider artifact (sessions, interactions, codes, tokens, grants, registered clients)
-- as one JSON payload per row. Rows past expires_at are treated as absent and purged by the worker.
CREATE TABLE oidc_payloads (
  kind text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  uid text,
  user_code text,
  expires_at timestamptz,
  PRIMARY KEY (kind, id)
);
CREATE INDEX oidc_payloads_grant_idx ON oidc_payloads(grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_payloads_uid_idx ON oidc_payloads(uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_payloads_user_code_idx ON oidc_payloads(user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oidc_payloads_expires_idx ON oidc_payloads(expires_at) WHERE expires_at IS NOT NULL;

-- Keys generated on first start when the settings give none: token signing keys (private JWKs)
-- and cookie signing keys. Shared by every server on the database; the newest is used first.
CREATE TABLE oidc_keys (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('signing', 'cookie')),
  material jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX oidc_keys_kind_idx ON oidc_keys(kind, created_at DESC);
