-- 0008: an Idempotency-Key claim is a lease. A key still without an answer whose claim is older
-- than the lease (IDEMPOTENCY_LEASE_SECONDS, from created_at) may be taken over by a retry with the
-- same request; claim_token tells the first request it was overtaken. change_committed_at is set
-- inside the transaction of the request's change, so a claim whose change committed is never taken
-- over (that would run the change twice), and an overtaken request cannot commit.
ALTER TABLE idempotency_keys ADD COLUMN claim_token uuid;
ALTER TABLE idempotency_keys ADD COLUMN change_committed_at timestamptz;
