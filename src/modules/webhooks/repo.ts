// SQL of the webhooks module: subscriptions, deliveries and their attempts, and the worker's
// fan-out and claim queries. The outbox's own queries (undispatched events) are src/infra/outbox/repo.ts.
import { createHash } from 'node:crypto';
import { and, asc, count, eq, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import { deleteBatch } from '../../db/delete-batch.ts';
import { keysetAfter, keysetOrderBy } from '../../db/keyset.ts';
import type { PagePosition } from '../../shared/pagination.ts';
import type { DeliveryStatus } from './retry-schedule.ts';
import { webhookDeliveries, webhookDeliveryAttempts, webhookSubscriptions } from './tables.ts';

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookDeliveryAttempts.$inferSelect;

// ---- subscriptions ------------------------------------------------------------------------------

/**
 * Inserts the subscription unless the company already has `max` (active or not), in one
 * transaction that holds a per-company lock, so two creates at once cannot both pass the count.
 * Answers false when the cap was reached.
 */
export async function insertSubscriptionWithinCap(db: Db, row: SubscriptionRow, max: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('webhook_subscriptions'), hashtext(${row.companyId}))`);
    const [{ total }] = await tx
      .select({ total: count() })
      .from(webhookSubscriptions)
      .where(eq(webhookSubscriptions.companyId, row.companyId));
    if (total >= max) return false;
    await tx.insert(webhookSubscriptions).values(row);
    return true;
  });
}

export async function findSubscription(db: Db, companyId: string, id: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.companyId, companyId)))
    .limit(1);
  return row;
}

export async function listSubscriptions(
  db: Db,
  companyId: string,
  page: PagePosition,
): Promise<{ rows: SubscriptionRow[]; total: number }> {
  const where = eq(webhookSubscriptions.companyId, companyId);
  const sortKeys = [webhookSubscriptions.createdAt, webhookSubscriptions.id];
  const rows = await db
    .select()
    .from(webhookSubscriptions)
    .where(and(where, keysetAfter(sortKeys, page)))
    .orderBy(...keysetOrderBy(sortKeys, page))
    .limit(page.limit)
    .offset(page.offset);
  const [{ total }] = await db.select({ total: count() }).from(webhookSubscriptions).where(where);
  return { rows, total };
}

export async function updateSubscription(
  db: Db,
  companyId: string,
  id: string,
  patch: Partial<Omit<SubscriptionRow, 'id' | 'companyId' | 'createdAt'>>,
): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .update(webhookSubscriptions)
    .set(patch)
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.companyId, companyId)))
    .returning();
  return row;
}

/**
 * Makes `secret` the signing secret and the current one the previous, in one statement (the
 * right-hand sides see the row as it was), so two rotations at once cannot lose a secret that was
 * already shown.
 */
export async function rotateSubscriptionSecret(
  db: Db,
  companyId: string,
  id: string,
  input: { secret: string; previousSecretExpiresAt: Date; now: Date },
): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .update(webhookSubscriptions)
    .set({
      previousSecret: sql`${webhookSubscriptions.secret}`,
      previousSecretExpiresAt: input.previousSecretExpiresAt,
      secret: input.secret,
      updatedAt: input.now,
    })
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.companyId, companyId)))
    .returning();
  return row;
}

export interface StoredSecrets {
  id: string;
  secret: string;
  previousSecret: string | null;
}

/** Stored secrets of every subscription, by id, a page at a time (re-sealing). */
export async function listStoredSecrets(db: Db, afterId: string | null, limit: number): Promise<StoredSecrets[]> {
  return db
    .select({ id: webhookSubscriptions.id, secret: webhookSubscriptions.secret, previousSecret: webhookSubscriptions.previousSecret })
    .from(webhookSubscriptions)
    .where(afterId === null ? undefined : gt(webhookSubscriptions.id, afterId))
    .orderBy(asc(webhookSubscriptions.id))
    .limit(limit);
}

/** Replaces the stored secrets if the row still holds `was` (compare and set). */
export async function replaceStoredSecrets(
  db: Db,
  was: StoredSecrets,
  next: { secret: string; previousSecret: string | null },
): Promise<boolean> {
  const rows = await db
    .update(webhookSubscriptions)
    .set(next)
    .where(
      and(
        eq(webhookSubscriptions.id, was.id),
        eq(webhookSubscriptions.secret, was.secret),
        was.previousSecret === null ? isNull(webhookSubscriptions.previousSecret) : eq(webhookSubscriptions.previousSecret, was.previousSecret),
      ),
    )
    .returning({ id: webhookSubscriptions.id });
  return rows.length > 0;
}

export async function deleteSubscription(db: Db, companyId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.companyId, companyId)))
    .returning({ id: webhookSubscriptions.id });
  return rows.length > 0;
}

// ---- delivery log -------------------------------------------------------------------------------

export async function listDeliveries(
  db: Db,
  subscriptionId: string,
  filter: { status?: DeliveryStatus | undefined },
  page: PagePosition,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const sortKeys = [webhookDeliveries.createdAt, webhookDeliveries.id];
  const where = and(
    eq(webhookDeliveries.subscriptionId, subscriptionId),
    filter.status ? eq(webhookDeliveries.status, filter.status) : undefined,
  );
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(where, keysetAfter(sortKeys, page)))
    .orderBy(...keysetOrderBy(sortKeys, page))
    .limit(page.limit)
    .offset(page.offset);
  const [{ total }] = await db.select({ total: count() }).from(webhookDeliveries).where(where);
  return { rows, total };
}

export async function findDelivery(db: Db, subscriptionId: string, id: string): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.subscriptionId, subscriptionId)))
    .limit(1);
  return row;
}

/** Attempts of the given deliveries, oldest first. */
export async function listAttempts(db: Db, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .select()
    .from(webhookDeliveryAttempts)
    .where(inArray(webhookDeliveryAttempts.deliveryId, deliveryIds))
    .orderBy(asc(webhookDeliveryAttempts.attemptedAt), asc(webhookDeliveryAttempts.id));
}

export async function insertDelivery(db: Db, row: DeliveryRow): Promise<void> {
  await db.insert(webhookDeliveries).values(row);
}

export async function insertAttempt(db: Db, row: AttemptRow): Promise<void> {
  await db.insert(webhookDeliveryAttempts).values(row);
}

/**
 * Queues a delivery again, due now, at the start of the retry schedule. A lease held by a worker
 * sending it right now is left alone: that worker's outcome then stands.
 */
export async function requeueDelivery(db: Db, id: string, now: Date): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'PENDING', retryStep: 0, nextAttemptAt: now, updatedAt: now })
    .where(eq(webhookDeliveries.id, id))
    .returning();
  return row;
}

// ---- worker: fan-out ----------------------------------------------------------------------------

/**
 * Fans events out in one set-based statement: a delivery for each active subscription of the
 * event's company that lists its type and existed when it occurred. The events travel as one JSON
 * parameter and the pairs are made by the join, so the statement's size does not grow with the
 * number of subscriptions (a VALUES list of every pair overflowed PostgreSQL's 65,535 bind
 * parameters). Idempotent: a (subscription, event) pair already queued is skipped.
 * `payloads` holds each event's exact signed body, built by the caller.
 */
export async function insertDeliveriesForEvents(
  tx: Db,
  payloads: Array<{ eventId: string; payload: string }>,
  now: Date,
): Promise<number> {
  if (payloads.length === 0) return 0;
  const at = now.toISOString();
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`
      INSERT INTO webhook_deliveries
        (id, company_id, subscription_id, event_id, event_type, payload, status, attempt_count, retry_step,
         next_attempt_at, created_at, updated_at)
      SELECT gen_random_uuid(), e.company_id, s.id, e.id, e.type, p.payload, 'PENDING', 0, 0,
             ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
      FROM jsonb_to_recordset(${JSON.stringify(payloads.map((p) => ({ event_id: p.eventId, payload: p.payload })))}::jsonb)
             AS p(event_id uuid, payload text)
      JOIN events e ON e.id = p.event_id
      JOIN webhook_subscriptions s
        ON s.company_id = e.company_id AND s.active AND e.type = ANY(s.events) AND s.created_at <= e.occurred_at
      WHERE e.type <> 'ping'
      ORDER BY e.occurred_at, e.id, s.id
      ON CONFLICT (subscription_id, event_id) DO NOTHING
      RETURNING id`,
  );
  return rows.length;
}

// ---- worker: claim and outcome ------------------------------------------------------------------

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

/** One attempt's outcome, for writing several at once (recordDeliveredAttempts). */
export interface FinishedAttempt {
  attempt: AttemptRow;
  /** The body that was sent: the answer is kept only while the delivery still holds it (see sentBodyDigest). */
  sentPayload: string;
  token: string;
  status: DeliveryStatus;
  retryStep: number;
  nextAttemptAt: Date | null;
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

/** The same digest of the body a delivery (aliased `d`) holds now. */
const STORED_BODY_DIGEST = sql.raw(`encode(sha256(convert_to(d.payload, 'UTF8')), 'hex')`);

/**
 * Writes successful attempts in one statement: each attempt row (unless its delivery is gone), the
 * delivery's outcome if the lease is still ours, and the subscriptions of the applied ones marked
 * healthy. Answers the ids of the deliveries whose outcome was applied (lease still held).
 * One statement is atomic on its own, like the transaction it stands for.
 */
export async function recordDeliveredAttempts(db: Db, finished: FinishedAttempt[]): Promise<Set<string>> {
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
    now: f.now.toISOString(),
  }));
  const rows = await queryRows<{ id: string }>(
    db,
    sql`
      WITH input AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb) AS i(
          attempt_id uuid, delivery_id uuid, attempted_at timestamptz, status_code integer, duration_ms integer,
          error text, response_body text, sent_digest text, token uuid, status text, retry_step integer, next_attempt_at timestamptz,
          now timestamptz)
      ),
      sent AS (
        SELECT d.id, ${STORED_BODY_DIGEST} = i.sent_digest AS unchanged
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
        RETURNING d.id, d.subscription_id
      ),
      healthy AS (
        UPDATE webhook_subscriptions s SET failing_since = NULL, consecutive_failures = 0, circuit_open_until = NULL
        WHERE s.id IN (SELECT subscription_id FROM applied) AND (s.failing_since IS NOT NULL OR s.consecutive_failures > 0)
      )
      SELECT id FROM applied`,
  );
  return new Set(rows.map((row) => row.id));
}

/** Applies an attempt's outcome, if the lease is still ours; returns the row or undefined. */
export async function finishClaimedDelivery(
  tx: Db,
  input: {
    id: string;
    token: string;
    now: Date;
    status: DeliveryStatus;
    retryStep: number;
    nextAttemptAt: Date | null;
  },
): Promise<DeliveryRow | undefined> {
  const [row] = await tx
    .update(webhookDeliveries)
    .set({
      status: input.status,
      retryStep: input.retryStep,
      nextAttemptAt: input.nextAttemptAt,
      attemptCount: sql`${webhookDeliveries.attemptCount} + 1`,
      lockedUntil: null,
      claimToken: null,
      updatedAt: input.now,
    })
    .where(and(eq(webhookDeliveries.id, input.id), eq(webhookDeliveries.claimToken, input.token)))
    .returning();
  return row;
}

/**
 * Records an attempt unless its delivery is gone (its subscription was deleted meanwhile); its
 * answer only while the delivery still holds the body sent (see sentBodyDigest).
 */
export async function insertAttemptIfDeliveryExists(tx: Db, row: AttemptRow, sentPayload: string): Promise<void> {
  await tx.execute(sql`
    INSERT INTO webhook_delivery_attempts (id, delivery_id, attempted_at, status_code, duration_ms, error, response_body)
    SELECT ${row.id}::uuid, ${row.deliveryId}::uuid, ${row.attemptedAt.toISOString()}::timestamptz, ${row.statusCode}::integer,
           ${row.durationMs}::integer, ${row.error},
           CASE WHEN ${STORED_BODY_DIGEST} = ${sentBodyDigest(sentPayload)} THEN ${row.responseBody}::text END
    FROM (SELECT payload FROM webhook_deliveries WHERE id = ${row.deliveryId}::uuid FOR UPDATE) d`);
}

export async function markSubscriptionHealthy(tx: Db, id: string): Promise<void> {
  await tx
    .update(webhookSubscriptions)
    .set({ failingSince: null, consecutiveFailures: 0, circuitOpenUntil: null })
    .where(
      and(
        eq(webhookSubscriptions.id, id),
        sql`(${webhookSubscriptions.failingSince} IS NOT NULL OR ${webhookSubscriptions.consecutiveFailures} > 0)`,
      ),
    );
}

/**
 * Starts (or continues) the subscription's run of failures and counts this one; at `circuit.failures`
 * in a row its circuit opens until `circuit.openUntil`. Once it has opened, only an attempt begun
 * after its cool-down (the probe) opens it again: the failures of sends that began before (still
 * hanging when it opened) count, but neither push it further nor reopen it behind the probe's back.
 * Returns the row and whether this failure opened the circuit.
 */
export async function markSubscriptionFailing(
  tx: Db,
  id: string,
  now: Date,
  circuit: { failures: number; openUntil: Date; attemptedAt: Date },
): Promise<{ row: SubscriptionRow; opened: boolean } | undefined> {
  const at = now.toISOString();
  const opens = sql`${webhookSubscriptions.consecutiveFailures} + 1 >= ${circuit.failures}::int
    AND (${webhookSubscriptions.circuitOpenUntil} IS NULL
         OR ${webhookSubscriptions.circuitOpenUntil} <= ${circuit.attemptedAt.toISOString()}::timestamptz)`;
  const [row] = await tx
    .update(webhookSubscriptions)
    .set({
      failingSince: sql`coalesce(${webhookSubscriptions.failingSince}, ${at}::timestamptz)`,
      consecutiveFailures: sql`${webhookSubscriptions.consecutiveFailures} + 1`,
      circuitOpenUntil: sql`CASE WHEN ${opens} THEN ${circuit.openUntil.toISOString()}::timestamptz ELSE ${webhookSubscriptions.circuitOpenUntil} END`,
    })
    .where(eq(webhookSubscriptions.id, id))
    .returning();
  if (!row) return undefined;
  return { row, opened: row.circuitOpenUntil !== null && row.circuitOpenUntil.getTime() === circuit.openUntil.getTime() };
}

export async function disableSubscription(
  tx: Db,
  id: string,
  reason: 'ENDPOINT_GONE' | 'FAILING',
  now: Date,
): Promise<void> {
  await tx
    .update(webhookSubscriptions)
    .set({ active: false, disabledReason: reason, updatedAt: now })
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.active, true)));
}

// ---- backlog (metrics) ---------------------------------------------------------------------------

/** Undispatched events and pending deliveries: how many, and the oldest's time (null when none). */
export async function countBacklog(db: Db): Promise<{ events: number; oldestEvent: Date | null; pending: number; oldestPending: Date | null }> {
  const [row] = await queryRows<{ events: number; oldest_event: string | Date | null; pending: number; oldest_pending: string | Date | null }>(
    db,
    sql`
      SELECT
        (SELECT count(*)::int FROM events WHERE dispatched_at IS NULL) AS events,
        (SELECT min(occurred_at) FROM events WHERE dispatched_at IS NULL) AS oldest_event,
        (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'PENDING') AS pending,
        (SELECT min(created_at) FROM webhook_deliveries WHERE status = 'PENDING') AS oldest_pending`,
  );
  const date = (value: string | Date | null) => (value === null ? null : new Date(value));
  return { events: row!.events, oldestEvent: date(row!.oldest_event), pending: row!.pending, oldestPending: date(row!.oldest_pending) };
}

// ---- retention -------------------------------------------------------------------------------------

/**
 * Deletes up to `limit` finished deliveries (DELIVERED or FAILED) last changed before `before`;
 * their attempts go with them (ON DELETE CASCADE). Pending deliveries are never pruned.
 */
export async function deleteFinishedDeliveriesBefore(db: Db, before: Date, limit: number): Promise<number> {
  return deleteBatch(db, {
    table: 'webhook_deliveries',
    key: ['id'],
    where: sql`status <> 'PENDING' AND updated_at < ${before.toISOString()}::timestamptz`,
    age: 'updated_at',
    limit,
  });
}

// ---- erasure and export of a person's data ---------------------------------------------------------

/** The company's deliveries whose body names any of these ids (found by the body: its event may be pruned already). */
export async function listDeliveriesMentioning(db: Db, companyId: string, ids: string[]): Promise<DeliveryRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.companyId, companyId),
        sql`(${sql.join(
          ids.map((id) => sql`strpos(${webhookDeliveries.payload}, ${id}) > 0`),
          sql` or `,
        )})`,
      ),
    )
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id));
}

export async function setDeliveryPayload(db: Db, id: string, payload: string): Promise<void> {
  await db.update(webhookDeliveries).set({ payload }).where(eq(webhookDeliveries.id, id));
}

export async function setAttemptResponseBody(db: Db, id: string, responseBody: string | null): Promise<void> {
  await db.update(webhookDeliveryAttempts).set({ responseBody }).where(eq(webhookDeliveryAttempts.id, id));
}
