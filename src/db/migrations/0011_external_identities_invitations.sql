-- Social sign-in: accounts at Google, LinkedIn and Facebook linked to users, and the pending
-- upstream round trips. Invitations of people into a company.

CREATE TABLE external_identities (
  provider text NOT NULL,
  subject text NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email text,
  created_at timestamptz NOT NULL,
  last_sign_in_at timestamptz NOT NULL,
  PRIMARY KEY (provider, subject)
);
CREATE INDEX external_identities_user_idx ON external_identities(user_id);

-- Between our redirect to a provider and its redirect back (minutes). The state itself is not
-- stored, only its hash; each row is deleted when used.
CREATE TABLE social_sign_in_attempts (
  state_hash text PRIMARY KEY,
  provider text NOT NULL,
  interaction_uid text NOT NULL,
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX social_sign_in_attempts_expires_idx ON social_sign_in_attempts(expires_at);

-- An invitation is accepted by signing in with its (verified) e-mail address.
CREATE TABLE invitations (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  -- Lower-cased, like users.email.
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('ADMIN', 'MEMBER')),
  -- NULL when an operator invited with the CLI, or the inviting user was deleted.
  invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by uuid REFERENCES users(id) ON DELETE SET NULL
);
-- One open invitation per company and address (accepted ones are history).
CREATE UNIQUE INDEX invitations_open_idx ON invitations(company_id, email) WHERE accepted_at IS NULL;
CREATE INDEX invitations_email_idx ON invitations(email) WHERE accepted_at IS NULL;
CREATE INDEX invitations_company_idx ON invitations(company_id, created_at DESC, id DESC);
