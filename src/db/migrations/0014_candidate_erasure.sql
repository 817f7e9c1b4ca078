-- 0014_candidate_erasure: a candidate erased on request (DELETE /public/v1/candidates/{id}) keeps
-- an anonymized row, so the applications that point at it and the pipeline statistics stay whole;
-- erased_at marks it, and readers treat it as gone (404, not listed).
ALTER TABLE candidates ADD COLUMN erased_at timestamptz;
