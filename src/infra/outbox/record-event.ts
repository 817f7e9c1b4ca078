// The one way a service emits a domain event: call it with the transaction that makes the change,
// so the event commits or rolls back together with it. Webhook delivery reads from this table.
//
// Which events exist is not this folder's business: each domain module declares its own in its
// events.ts by adding entries (name -> payload type) to EventCatalogue below, so recordEvent
// accepts exactly the catalogued names, each with its own payload, and this folder imports no module.
import { randomUUID } from 'node:crypto';
import { queryStatement, type Db } from '../../db/client.ts';
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
  await queryStatement(tx, RECORD_EVENT, valuesOf(row));
  return row;
}

/** The columns an event is written with, as keys of tables.ts (the others have defaults), in parameter order. */
const WRITTEN = ['id', 'companyId', 'type', 'data', 'occurredAt'] as const satisfies ReadonlyArray<keyof RecordedEvent & keyof typeof events.$inferInsert>;

/**
 * The one insert of an event, its parameters numbered from `n` (eventInsertValues gives them):
 * recordEvent runs it as its own statement; a service that writes its change and its event in one
 * round trip puts it in a data-modifying CTE with `source`, the CTE of the change's RETURNING, so
 * the event is written only if the change wrote a row, and commits or rolls back with it (one
 * statement is atomic). The text is the same for every event, so the statement around it is built
 * once and prepared once per connection (queryStatement).
 */
export function eventInsertText(n: number, source?: string): string {
  const values = WRITTEN.map((key, i) => `$${n + i}::${events[key].getSQLType()}`).join(', ');
  return `insert into events (${WRITTEN.map((key) => events[key].name).join(', ')}) select ${values}${source ? ` from ${source}` : ''}`;
}

const RECORD_EVENT = eventInsertText(1);

/** The parameters of eventInsertText for one new event (its id made here). */
export function eventInsertValues<T extends DomainEventType>(event: {
  companyId: string;
  type: T;
  data: EventCatalogue[T];
  occurredAt: Date;
}): unknown[] {
  return valuesOf({ id: randomUUID(), ...event });
}

function valuesOf(row: RecordedEvent): unknown[] {
  return WRITTEN.map((key) => (key === 'data' ? JSON.stringify(row.data) : key === 'occurredAt' ? row.occurredAt.toISOString() : row[key]));
}
