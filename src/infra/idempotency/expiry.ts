// How long an Idempotency-Key's first answer is kept (docs/decisions.md, "Protection"). Older keys
// are deleted by the retention sweep (src/maintenance/retention.ts, RETENTION_IDEMPOTENCY_HOURS).
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
