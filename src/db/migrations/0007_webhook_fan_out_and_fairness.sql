-- 0007: fan-out that cannot stall, and fair delivery scheduling.

-- An event whose fan-out failed is set aside until dispatch_retry_at (with a growing wait), so
-- one poisoned event never holds back the ones behind it.
ALTER TABLE events ADD COLUMN dispatch_failures integer NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN dispatch_retry_at timestamptz;

-- The claim query walks each active subscription's due deliveries oldest first, a few at a time
-- (per-subscription in-flight cap), and counts each subscription's deliveries in flight.
CREATE INDEX webhook_deliveries_subscription_due_idx
  ON webhook_deliveries(subscription_id, next_attempt_at, id) WHERE status = 'PENDING';
