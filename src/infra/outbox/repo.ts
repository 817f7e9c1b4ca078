// The outbox's reading side: for webhook delivery's fan-out (events not yet fanned out, marking
// them done, setting aside one whose fan-out failed, the backlog for /metrics), for the event feed
// and for a person's data. Other modules reach the `events` table only through these functions
// (writing is record-event.ts, inside each service's transaction).
import { and, asc, count, desc, eq, gte, inArray, isNull, lte, min, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { keysetAfter, keysetBefore, keysetOrderBy } from '../../db/keyset.ts';
import type { NewestFirstWindow, PagePosition } from '../../shared/pagination.ts';
import { events } from './tables.ts';

export type EventRow = typeof events.$inferSelect;

/**
 * Locks a batch of events not yet fanned out and not set aside after a failed fan-out. SKIP LOCKED:
 * another worker's batch is passed over, so workers never wait for each other and never fan out
 * one event twice.
 */
export async function lockUndispatchedEvents(tx: Db, limit: number, now: Date): Promise<EventRow[]> {
  return tx
    .select()
    .from(events)
    .where(and(isNull(events.dispatchedAt), or(isNull(events.dispatchRetryAt), lte(events.dispatchRetryAt, now))))
    .orderBy(asc(events.occurredAt), asc(events.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function markEventsDispatched(tx: Db, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx.update(events).set({ dispatchedAt: at }).where(inArray(events.id, ids));
}

/** Sets an event aside after a failed fan-out; answers how many times it has failed. */
export async function markEventDispatchFailed(tx: Db, id: string, retryAt: (failures: number) => Date): Promise<number> {
  const [row] = await tx
    .update(events)
    .set({ dispatchFailures: sql`${events.dispatchFailures} + 1` })
    .where(eq(events.id, id))
    .returning({ failures: events.dispatchFailures });
  const failures = row?.failures ?? 1;
  await tx.update(events).set({ dispatchRetryAt: retryAt(failures) }).where(eq(events.id, id));
  return failures;
}

/** Events not yet fanned out: how many, and the oldest's time (null when none), for /metrics. */
export async function countUndispatchedEvents(db: Db): Promise<{ events: number; oldestEvent: Date | null }> {
  const [row] = await db
    .select({ events: count(), oldestEvent: min(events.occurredAt) })
    .from(events)
    .where(isNull(events.dispatchedAt));
  return { events: row?.events ?? 0, oldestEvent: row?.oldestEvent ?? null };
}

// ---- the event feed (GET /public/v1/events) -----------------------------------------------------

export interface FeedRow {
  id: string;
  companyId: string;
  type: string;
  data: unknown;
  occurredAt: Date;
  txId: string;
  seq: string;
}

/**
 * A company's events in feed order (tx_id, seq), only of the given types, only those every reader
 * can already see for good: written by transactions older than the oldest one still running, so no
 * event can later commit behind a position already answered (0013_event_feed.sql).
 */
export async function listFeedEvents(
  db: Db,
  companyId: string,
  filter: { types: readonly string[]; since: Date | undefined },
  page: PagePosition,
): Promise<{ rows: FeedRow[]; total: number }> {
  if (filter.types.length === 0) return { rows: [], total: 0 };
  const where = and(
    eq(events.companyId, companyId),
    inArray(events.type, [...filter.types]),
    filter.since ? gte(events.occurredAt, filter.since) : undefined,
    sql`${events.txId} < pg_snapshot_xmin(pg_current_snapshot())`,
  );
  const sortKeys = [events.txId, events.seq];
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: events.id,
        companyId: events.companyId,
        type: events.type,
        data: events.data,
        occurredAt: events.occurredAt,
        txId: sql<string>`${events.txId}::text`,
        seq: sql<string>`${events.seq}::text`,
      })
      .from(events)
      .where(and(where, keysetAfter(sortKeys, page)))
      .orderBy(...keysetOrderBy(sortKeys, page))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(events).where(where),
  ]);
  return { rows, total };
}

// ---- the activity timeline (src/modules/activity) ------------------------------------------------

/** The event types the activity timeline reads, as the partial index events_activity_idx (migration 0035) holds them. */
const ACTIVITY_EVENT_TYPES = ['candidate.file_added', 'candidate.file_removed', 'candidate.erased'];

/**
 * The company's events of these types (some of ACTIVITY_EVENT_TYPES) whose data names the id
 * (anywhere in it). The types are written as literals, not parameters, so the planner can prove the
 * partial index's condition from them whatever the plan.
 */
function eventsNamingWhere(companyId: string, filter: { types: readonly string[]; mentioning: string }) {
  const unknown = filter.types.filter((type) => !ACTIVITY_EVENT_TYPES.includes(type));
  if (unknown.length > 0) throw new Error(`not an activity event type: ${unknown.join(', ')}`);
  const types = sql.raw(filter.types.map((type) => `'${type}'`).join(', '));
  return and(eq(events.companyId, companyId), sql`${events.type} in (${types})`, sql`${events.data}::text like ${`%${filter.mentioning}%`}`);
}

/**
 * Events of these types naming the id, newest first by (occurredAt, id), within the window. Only
 * what retention kept (src/infra/outbox/prune.ts): the timeline's older entries of these types are gone.
 */
export async function listEventsNaming(
  db: Db,
  companyId: string,
  filter: { types: readonly string[]; mentioning: string },
  window: NewestFirstWindow,
): Promise<Array<{ id: string; type: string; data: unknown; occurredAt: Date }>> {
  if (filter.types.length === 0) return [];
  return db
    .select({ id: events.id, type: events.type, data: events.data, occurredAt: events.occurredAt })
    .from(events)
    .where(and(eventsNamingWhere(companyId, filter), keysetBefore(events.occurredAt, events.id, window.before)))
    .orderBy(desc(events.occurredAt), desc(events.id))
    .limit(window.limit);
}

export async function countEventsNaming(db: Db, companyId: string, filter: { types: readonly string[]; mentioning: string }): Promise<number> {
  if (filter.types.length === 0) return 0;
  const [{ total }] = await db.select({ total: count() }).from(events).where(eventsNamingWhere(companyId, filter));
  return total;
}

// ---- erasure and export of a person's data ---------------------------------------------------------

/** The company's events whose data names any of these ids (a candidate and their applications). */
export async function findEventsMentioning(db: Db, companyId: string, ids: string[]): Promise<EventRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(events)
    .where(and(eq(events.companyId, companyId), or(...ids.map((id) => sql`${events.data}::text like ${`%${id}%`}`))))
    .orderBy(asc(events.txId), asc(events.seq));
}

export async function replaceEventData(db: Db, id: string, data: unknown): Promise<void> {
  await db.update(events).set({ data }).where(eq(events.id, id));
}

// ---- sample data ------------------------------------------------------------------------------------

/**
 * Marks the company's events recorded so far by the caller's own transaction as fanned out, so no
 * webhook delivery is ever made for them (sample data is not news for a receiver). Answers how many.
 */
export async function markOwnTransactionEventsDispatched(tx: Db, companyId: string, at: Date): Promise<number> {
  const rows = await tx
    .update(events)
    .set({ dispatchedAt: at })
    .where(and(eq(events.companyId, companyId), sql`${events.txId} = pg_current_xact_id()`, isNull(events.dispatchedAt)))
    .returning({ id: events.id });
  return rows.length;
}

/** Deletes the company's events whose data names any of these ids (the feed then never shows them). Answers how many. */
export async function deleteEventsMentioning(db: Db, companyId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .delete(events)
    .where(and(eq(events.companyId, companyId), or(...ids.map((id) => sql`${events.data}::text like ${`%${id}%`}`))))
    .returning({ id: events.id });
  return rows.length;
}
