-- Change notifications (LISTEN/NOTIFY), sent at commit by triggers so no write path can forget:
--   api_keys_changed: a key was revoked, changed or deleted; every server drops its key cache
--                     (src/modules/api-keys/key-cache.ts), so a revoked key fails at once everywhere.
--   events_recorded:  an outbox event was written; webhook workers wake instead of waiting for
--                     their poll (which stays as the safety net).
CREATE FUNCTION notify_api_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('api_keys_changed', OLD.id::text);
  RETURN NULL;
END $$;
CREATE TRIGGER api_keys_changed AFTER UPDATE ON api_keys FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
        OR OLD.scopes IS DISTINCT FROM NEW.scopes OR OLD.company_id IS DISTINCT FROM NEW.company_id
        OR OLD.key_hash IS DISTINCT FROM NEW.key_hash)
  EXECUTE FUNCTION notify_api_key_changed();
CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION notify_api_key_changed();

-- One notification per statement (NOTIFY folds identical payloads within a transaction anyway).
CREATE FUNCTION notify_events_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('events_recorded', '');
  RETURN NULL;
END $$;
CREATE TRIGGER events_recorded AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION notify_events_recorded();
