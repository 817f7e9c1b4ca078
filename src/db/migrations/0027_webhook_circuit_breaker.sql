-- 0025: a circuit breaker per webhook subscription, and the claim's in-flight counts.

-- Failed attempts in a row (reset by a success). Once it reaches the worker's threshold the
-- subscription's circuit opens: no delivery of it is claimed before circuit_open_until, then one
-- at a time (a probe) until an attempt succeeds.
ALTER TABLE webhook_subscriptions ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0;
ALTER TABLE webhook_subscriptions ADD COLUMN circuit_open_until timestamptz;

-- The deliveries in flight (leased): the claim counts them per subscription and per company on
-- every claim. Only leased rows are in this index, so the count does not grow with a backlog.
CREATE INDEX webhook_deliveries_leased_idx
  ON webhook_deliveries(locked_until) INCLUDE (subscription_id, company_id)
  WHERE status = 'PENDING' AND locked_until IS NOT NULL;
