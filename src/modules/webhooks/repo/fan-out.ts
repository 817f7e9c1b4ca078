// SQL of the fan-out: an outbox event becomes a delivery per subscription that wants it. The events
// themselves are read and marked through the outbox's functions (src/infra/outbox/repo.ts): this
// statement is given what it needs of each, so it names only this module's tables.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../../db/client.ts';

/** What the fan-out needs of one outbox event: who it belongs to, its type and time, its signed body. */
export interface EventToFanOut {
  eventId: string;
  companyId: string;
  type: string;
  occurredAt: Date;
  /** The exact body to sign and send (webhookBody of the event), built by the caller. */
  payload: string;
}

/**
 * Fans events out in one set-based statement: a delivery for each active subscription of the
 * event's company that lists its type and existed when it occurred. The events travel as one JSON
 * parameter and the pairs are made by the join, so the statement's size does not grow with the
 * number of subscriptions (a VALUES list of every pair overflowed PostgreSQL's 65,535 bind
 * parameters). Idempotent: a (subscription, event) pair already queued is skipped.
 */
export async function insertDeliveriesForEvents(tx: Db, events: EventToFanOut[], now: Date): Promise<number> {
  if (events.length === 0) return 0;
  const at = now.toISOString();
  const input = events.map((event) => ({
    event_id: event.eventId,
    company_id: event.companyId,
    type: event.type,
    occurred_at: event.occurredAt.toISOString(),
    payload: event.payload,
  }));
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`
      INSERT INTO webhook_deliveries
        (id, company_id, subscription_id, event_id, event_type, payload, status, attempt_count, retry_step,
         next_attempt_at, created_at, updated_at)
      SELECT gen_random_uuid(), e.company_id, s.id, e.event_id, e.type, e.payload, 'PENDING', 0, 0,
             ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
      FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
             AS e(event_id uuid, company_id uuid, type text, occurred_at timestamptz, payload text)
      JOIN webhook_subscriptions s
        ON s.company_id = e.company_id AND s.active AND e.type = ANY(s.events) AND s.created_at <= e.occurred_at
      WHERE e.type <> 'ping'
      ORDER BY e.occurred_at, e.event_id, s.id
      ON CONFLICT (subscription_id, event_id) DO NOTHING
      RETURNING id`,
  );
  return rows.length;
}
