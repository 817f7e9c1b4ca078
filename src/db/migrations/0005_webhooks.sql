-- 0005_webhooks: webhook subscriptions, one delivery per (subscription, event), and every attempt
-- made for a delivery (the delivery log).

CREATE TABLE webhook_subscriptions (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  url text NOT NULL,
  events text[] NOT NULL,
  active boolean NOT NULL DEFAULT true,
  -- Why the service turned the subscription off: ENDPOINT_GONE (the receiver answered 410) or
  -- FAILING (five days of failures in a row); null when active or switched off by the company.
  disabled_reason text CHECK (disabled_reason IN ('ENDPOINT_GONE', 'FAILING')),
  -- The HMAC key (whsec_...). Kept in clear because signing needs it; never returned after create
  -- or rotate.
  secret text NOT NULL,
  -- After a rotation the old secret keeps signing (as a second signature) until this time.
  previous_secret text,
  previous_secret_expires_at timestamptz,
  -- Start of the current run of failed attempts; null after a success. Five days of it disables.
  failing_since timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_subscriptions_company_idx ON webhook_subscriptions(company_id, created_at DESC, id DESC);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  subscription_id uuid NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
  -- The event's id: sent as webhook-id, the same on every attempt, so receivers can deduplicate.
  -- No foreign key: a ping has an id of its own and no row in events.
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  -- The exact JSON body that is signed and sent, identical on every attempt.
  payload text NOT NULL,
  status text NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
  attempt_count integer NOT NULL DEFAULT 0,
  -- Failed attempts since the delivery was (re)queued: the position in the retry schedule.
  retry_step integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  -- Lease of the worker sending it: another worker may take the delivery over once it has passed
  -- (the first one was killed, or hangs). claim_token tells a late finisher its lease was lost.
  locked_until timestamptz,
  claim_token uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- Fan-out is idempotent: an event reaches a subscription through one delivery at most.
  UNIQUE (subscription_id, event_id)
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries(next_attempt_at, id) WHERE status = 'PENDING';
CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries(subscription_id, created_at DESC, id DESC);

CREATE TABLE webhook_delivery_attempts (
  id uuid PRIMARY KEY,
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempted_at timestamptz NOT NULL,
  -- Null when no HTTP answer came (error says why).
  status_code integer,
  duration_ms integer NOT NULL,
  error text,
  -- At most 20 KB of what the receiver answered.
  response_body text
);
CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts(delivery_id, attempted_at, id);
