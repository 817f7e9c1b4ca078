// SQL of an attempt's outcome: the one statement that writes what came of sending a claimed
// delivery, for one attempt or many at once. What a failure does to its subscription (the run of
// failures, the circuit, disabling) follows in circuit-breaker.ts, in the same transaction.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../../db/client.ts';
import type { DeliveryStatus } from '../retry-schedule.ts';
import type { AttemptRow } from './delivery-log.ts';

/** One attempt's outcome. */
export interface FinishedAttempt {
  attempt: AttemptRow;
  /** The body that was sent: the answer is kept only while the delivery still holds it (see sentBodyDigest). */
  sentPayload: string;
  /** The claim's token: the delivery's outcome is applied only while the lease is still this one. */
  token: string;
  status: DeliveryStatus;
  retryStep: number;
  nextAttemptAt: Date | null;
  /** The answer was a success: the subscription's run of failures (and an open circuit) ends. */
  healthy: boolean;
  now: Date;
}

/**
 * An answer is stored only while the delivery still holds the body it answered. Erasing a person
 * rewrites the bodies that name them (and the answers already stored) in one transaction; an answer
 * arriving after that commit may echo what was erased, so it is stored without its body. The
 * delivery row is read FOR UPDATE: an erasure in progress holds that row until it commits, and the
 * read then sees the rewritten body (in the erasure's own order, oldest first, so the two cannot
 * deadlock). A digest stands in for the body, which may be long.
 */
function sentBodyDigest(payload: string): string {
  return createHash('sha256').update(payload, 'utf8').digest('hex');
}

/**
 * Writes attempts' outcomes in one statement: each attempt row (unless its delivery is gone, its
 * subscription deleted meanwhile), the delivery's outcome if the lease is still ours, and the
 * subscriptions of the applied successes marked healthy. Answers the ids of the deliveries whose
 * outcome was applied (lease still held). One statement is atomic on its own; in the caller's
 * transaction when the caller has more to write after it (a failure's circuit breaker).
 */
export async function writeAttemptOutcomes(db: Db, finished: FinishedAttempt[]): Promise<Set<string>> {
  if (finished.length === 0) return new Set();
  const input = finished.map((f) => ({
    attempt_id: f.attempt.id,
    delivery_id: f.attempt.deliveryId,
    attempted_at: f.attempt.attemptedAt.toISOString(),
    status_code: f.attempt.statusCode,
    duration_ms: f.attempt.durationMs,
    error: f.attempt.error,
    response_body: f.attempt.responseBody,
    sent_digest: sentBodyDigest(f.sentPayload),
    token: f.token,
    status: f.status,
    retry_step: f.retryStep,
    next_attempt_at: f.nextAttemptAt?.toISOString() ?? null,
    healthy: f.healthy,
    now: f.now.toISOString(),
  }));
  const rows = await queryRows<{ id: string }>(
    db,
    sql`
      WITH input AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb) AS i(
          attempt_id uuid, delivery_id uuid, attempted_at timestamptz, status_code integer, duration_ms integer,
          error text, response_body text, sent_digest text, token uuid, status text, retry_step integer, next_attempt_at timestamptz,
          healthy boolean, now timestamptz)
      ),
      sent AS (
        SELECT d.id, encode(sha256(convert_to(d.payload, 'UTF8')), 'hex') = i.sent_digest AS unchanged
        FROM webhook_deliveries d JOIN input i ON i.delivery_id = d.id
        ORDER BY d.created_at, d.id
        FOR UPDATE OF d
      ),
      attempts AS (
        INSERT INTO webhook_delivery_attempts (id, delivery_id, attempted_at, status_code, duration_ms, error, response_body)
        SELECT i.attempt_id, i.delivery_id, i.attempted_at, i.status_code, i.duration_ms, i.error,
               CASE WHEN s.unchanged THEN i.response_body END
        FROM input i JOIN sent s ON s.id = i.delivery_id
      ),
      applied AS (
        UPDATE webhook_deliveries d
        SET status = i.status, retry_step = i.retry_step, next_attempt_at = i.next_attempt_at,
            attempt_count = d.attempt_count + 1, locked_until = NULL, claim_token = NULL, updated_at = i.now
        -- Through sent: each row is locked there before it is updated here (a row this statement
        -- has updated already would be skipped by sent's FOR UPDATE, its attempt lost).
        FROM input i JOIN sent s ON s.id = i.delivery_id
        WHERE d.id = i.delivery_id AND d.claim_token = i.token
        RETURNING d.id, d.subscription_id, i.healthy
      ),
      healthy AS (
        UPDATE webhook_subscriptions s SET failing_since = NULL, consecutive_failures = 0, circuit_open_until = NULL
        WHERE s.id IN (SELECT subscription_id FROM applied WHERE healthy)
          AND (s.failing_since IS NOT NULL OR s.consecutive_failures > 0)
      )
      SELECT id FROM applied`,
  );
  return new Set(rows.map((row) => row.id));
}
