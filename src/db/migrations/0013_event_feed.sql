-- 0013_event_feed: the outbox read as a feed (GET /public/v1/events), in an order a reader can
-- resume from without gaps. Events are ordered by the transaction that wrote them (tx_id), then by
-- insertion (seq). The feed shows only events of transactions older than every transaction still
-- running (pg_snapshot_xmin), so an event committed late can never land behind a reader's cursor.
ALTER TABLE events ADD COLUMN tx_id xid8 NOT NULL DEFAULT pg_current_xact_id();
ALTER TABLE events ADD COLUMN seq bigserial;
CREATE INDEX events_feed_idx ON events(company_id, tx_id, seq);
