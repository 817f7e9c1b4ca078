// SQL of the claim: the worker takes a lease on due deliveries, fairly across companies and their
// subscriptions, skipping those whose circuit is open (decisions.md, "Webhook receivers that hang").
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../../db/client.ts';
import type { DeliveryStatus } from '../retry-schedule.ts';
import type { DeliveryRow } from './delivery-log.ts';

export interface ClaimedDelivery {
  delivery: DeliveryRow;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** Any constant: it only serializes claims, so per-subscription in-flight counts stay exact. */
const CLAIM_LOCK_ID = 72_616_932;

/**
 * Takes a lease on up to `limit` due deliveries of active subscriptions, fairly:
 * - per subscription, at most `perSubscription` deliveries in flight (leased and not run out),
 *   and per company at most `perCompany`, counting every worker's, so endpoints that hang tie up
 *   only a few slots, and one company's many endpoints no more than its share;
 * - none of a subscription whose circuit is open (`circuit_open_until` in the future), and one at
 *   a time (a probe) of one whose circuit has tripped (`circuitFailures` failures in a row) until
 *   an attempt succeeds;
 * - round-robin across companies (and, within a company, across its subscriptions), counting what
 *   each already has in flight: a company with n in flight has its next due delivery taken as if
 *   its (n+1)th, after every company with fewer; oldest first among equals. So the free slots go
 *   first to the companies holding the fewest (each company's fair share of the slots).
 * Claims are serialized by a transaction-scoped advisory lock: a claim is one short statement, and
 * the count of deliveries in flight it reads is then never stale. A lease that ran out (its worker
 * died) makes the delivery due again. The claiming UPDATE returns the deliveries with their
 * subscription's address and secrets, so a claim is the lock and one statement.
 */
export async function claimDueDeliveries(
  db: Db,
  input: {
    now: Date;
    leaseUntil: Date;
    token: string;
    limit: number;
    perSubscription: number;
    perCompany: number;
    circuitFailures: number;
  },
  options: { inTransaction?: boolean } = {},
): Promise<ClaimedDelivery[]> {
  const now = input.now.toISOString();
  // In the caller's transaction (the fan-out's) when it has one: the lock is held to its end.
  const inTransaction = (work: (tx: Db) => Promise<ClaimedRow[]>) => (options.inTransaction ? work(db) : db.transaction(work));
  const rows = await inTransaction(async (tx) => {
    // No JIT for the claim: its estimate (a lateral scan per subscription) passes jit_above_cost,
    // and compiling took ~20 ms of a statement that runs in 1 to 5: a whole send's worth of latency.
    await tx.execute(sql`SELECT set_config('jit', 'off', true), pg_advisory_xact_lock(${CLAIM_LOCK_ID})`);
    return queryRows<ClaimedRow>(
      tx,
      sql`
        WITH leased AS (
          SELECT subscription_id, company_id FROM webhook_deliveries
          WHERE status = 'PENDING' AND locked_until IS NOT NULL AND locked_until > ${now}::timestamptz
        ),
        subscription_busy AS (SELECT subscription_id, count(*)::int AS n FROM leased GROUP BY subscription_id),
        company_busy AS (SELECT company_id, count(*)::int AS n FROM leased GROUP BY company_id),
        picks AS (
          SELECT d.id, s.company_id, d.next_attempt_at, coalesce(sb.n, 0) + d.turn AS turn,
                 coalesce(cb.n, 0) AS company_busy, ${input.perCompany}::int - coalesce(cb.n, 0) AS company_free
          FROM webhook_subscriptions s
          LEFT JOIN subscription_busy sb ON sb.subscription_id = s.id
          LEFT JOIN company_busy cb ON cb.company_id = s.company_id
          CROSS JOIN LATERAL (
            SELECT q.id, q.next_attempt_at, row_number() OVER (ORDER BY q.next_attempt_at, q.id) AS turn
            FROM webhook_deliveries q
            WHERE q.subscription_id = s.id
              AND q.status = 'PENDING'
              AND q.next_attempt_at <= ${now}::timestamptz
              AND (q.locked_until IS NULL OR q.locked_until <= ${now}::timestamptz)
            ORDER BY q.next_attempt_at, q.id
            LIMIT greatest(
              least(
                CASE WHEN s.consecutive_failures >= ${input.circuitFailures}::int THEN 1 ELSE ${input.perSubscription}::int END
                  - coalesce(sb.n, 0),
                ${input.perCompany}::int - coalesce(cb.n, 0)
              ),
              0
            )
          ) d
          WHERE s.active AND (s.circuit_open_until IS NULL OR s.circuit_open_until <= ${now}::timestamptz)
        ),
        ranked AS (
          SELECT id, next_attempt_at, company_busy, company_free,
                 row_number() OVER (PARTITION BY company_id ORDER BY turn, next_attempt_at, id) AS company_turn
          FROM picks
        ),
        chosen AS (
          SELECT id FROM ranked WHERE company_turn <= company_free
          ORDER BY company_busy + company_turn, next_attempt_at, id LIMIT ${input.limit}
        )
        UPDATE webhook_deliveries d
        SET locked_until = ${input.leaseUntil.toISOString()}::timestamptz, claim_token = ${input.token}::uuid
        FROM chosen, webhook_subscriptions s
        WHERE d.id = chosen.id AND s.id = d.subscription_id
        RETURNING d.id, d.company_id, d.subscription_id, d.event_id, d.event_type, d.payload, d.status,
                  d.attempt_count, d.retry_step, d.claim_token,
                  ${epochMs(sql`d.next_attempt_at`)} AS next_attempt_at, ${epochMs(sql`d.locked_until`)} AS locked_until,
                  ${epochMs(sql`d.created_at`)} AS created_at, ${epochMs(sql`d.updated_at`)} AS updated_at,
                  s.url, s.secret, s.previous_secret, ${epochMs(sql`s.previous_secret_expires_at`)} AS previous_secret_expires_at`,
    );
  });
  return rows.map((row) => ({
    delivery: {
      id: row.id,
      companyId: row.company_id,
      subscriptionId: row.subscription_id,
      eventId: row.event_id,
      eventType: row.event_type,
      payload: row.payload,
      status: row.status,
      attemptCount: row.attempt_count,
      retryStep: row.retry_step,
      nextAttemptAt: dateOrNull(row.next_attempt_at),
      lockedUntil: dateOrNull(row.locked_until),
      claimToken: row.claim_token,
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
    },
    url: row.url,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: dateOrNull(row.previous_secret_expires_at),
  }));
}

interface ClaimedRow {
  id: string;
  company_id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: DeliveryStatus;
  attempt_count: number;
  retry_step: number;
  claim_token: string | null;
  next_attempt_at: number | null;
  locked_until: number | null;
  created_at: number;
  updated_at: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
}

/** A timestamp as epoch milliseconds: the drivers answer raw SQL's timestamps in different shapes. */
const epochMs = (column: SQL) => sql`(extract(epoch FROM ${column}) * 1000)::float8`;
const dateOrNull = (ms: number | null) => (ms === null ? null : new Date(ms));
