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
