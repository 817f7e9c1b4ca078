-- The authorization server's artifacts are keyed by the SHA-256 (hex) of their id, no longer by the
-- id itself: for access and refresh tokens, authorization codes and sessions the id is the secret
-- (src/modules/oauth/repo.ts). Registered clients keep their public client id. The payloads lose
-- their copy of the id (`jti`, given back from the id on reading) and an interaction's copy of its
-- session's id (`session.cookie`, read by nothing): see src/modules/oauth/adapter.ts.
UPDATE oidc_payloads
SET id = encode(sha256(convert_to(id, 'UTF8')), 'hex'),
    payload = (payload - 'jti') #- '{session,cookie}'
WHERE kind <> 'Client';
