-- 0009_retention: indexes for the worker's retention sweeps, which delete old rows in small
-- batches (oldest first) and must find them without scanning the whole table.

-- Dispatched events by age (undispatched ones have their own index and are never pruned).
CREATE INDEX events_dispatched_age_idx ON events(occurred_at) WHERE dispatched_at IS NOT NULL;

-- Finished deliveries by their last change (pending ones are never pruned).
CREATE INDEX webhook_deliveries_finished_age_idx ON webhook_deliveries(updated_at) WHERE status <> 'PENDING';
