// The one way a service emits a domain event: call it with the transaction that makes the change,
// so the event commits or rolls back together with it. Webhook delivery reads from this table.
//
// Which events exist is not this folder's business: each domain module declares its own in its
// events.ts by adding entries (name -> payload type) to EventCatalogue below, so recordEvent
// accepts exactly the catalogued names, each with its own payload, and this folder imports no module.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { events } from './tables.ts';

/** Event name -> payload type; filled by declaration merging from src/modules/<name>/events.ts. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a registry the modules extend
export interface EventCatalogue {}

export type DomainEventType = keyof EventCatalogue & string;

export interface RecordedEvent {
  id: string;
  companyId: string;
  type: string;
  data: unknown;
  occurredAt: Date;
}

export async function recordEvent<T extends DomainEventType>(
  tx: Db,
  event: { companyId: string; type: T; data: EventCatalogue[T]; occurredAt: Date },
): Promise<RecordedEvent> {
  const row = { id: randomUUID(), ...event };
  await tx.insert(events).values(row);
  return row;
}

/**
 * The same outbox write as part of one fixed statement (queryStatement), for a service that writes
 * its change and its event in one round trip: an `INSERT INTO events ... SELECT ... FROM <source>`
 * to put in a data-modifying CTE, so the event is written only if `source` (the change's RETURNING)
 * has a row, and commits or rolls back with the change (one statement is atomic on its own). Its
 * parameters are numbered from `n`; eventInsertValues gives them for one event. The text is the
 * same for every event, so the statement around it can be built once.
 */
export function eventInsertText(source: string, n: number): string {
  return `INSERT INTO events (id, company_id, type, data, occurred_at)
      SELECT $${n}::uuid, $${n + 1}::uuid, $${n + 2}, $${n + 3}::jsonb, $${n + 4}::timestamptz FROM ${source}`;
}

/** The parameters of eventInsertText for one new event (its id made here). */
export function eventInsertValues<T extends DomainEventType>(event: {
  companyId: string;
  type: T;
  data: EventCatalogue[T];
  occurredAt: Date;
}): unknown[] {
  return [randomUUID(), event.companyId, event.type, JSON.stringify(event.data), event.occurredAt.toISOString()];
}
