-- Change notifications (migration 0016): an outbox write wakes the webhook workers without every
-- writing transaction taking PostgreSQL's notification lock. A transaction that has sent NOTIFY
-- takes one lock for the whole database cluster as it commits and holds it until its commit is
-- flushed, so concurrent committers that notify commit one after another, each with a WAL flush of
-- its own (no group commit). Every status move writes an outbox event: with 0016's trigger, ten
-- concurrent movers made ~2,500 moves a second on this kind of machine and ~4,000 without the
-- notification, and PostgreSQL spent ~130 us more CPU a move (pgbench over the move's statement,
-- alternated); on a disk whose flush takes a millisecond it would cap every company's writes
-- together at about a thousand a second.
--
-- Now the notification is sent as the transaction commits (a deferred constraint trigger: once per
-- transaction, at COMMIT), and only by a transaction that takes a transaction-scoped advisory lock
-- without waiting: of the transactions committing at the same moment, one notifies and the others,
-- whose events commit within the same few milliseconds, go without. A worker woken by a
-- notification fans out again a few times in the next few hundred milliseconds
-- (src/modules/webhooks/delivery-worker.ts), which finds them; its poll stays as the safety net
-- (a notifier that fails at commit, a commit slower than the rechecks).

DROP TRIGGER events_recorded ON events;

CREATE OR REPLACE FUNCTION notify_events_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Once per transaction: later rows of the same transaction have nothing to add.
  IF current_setting('recruiting.events_notified', true) = 'yes' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('recruiting.events_notified', 'yes', true);
  IF pg_try_advisory_xact_lock(hashtext('events_recorded'), 0) THEN
    PERFORM pg_notify('events_recorded', '');
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER events_recorded AFTER INSERT ON events
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION notify_events_recorded();
