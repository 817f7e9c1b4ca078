// The one way a service emits a domain event: call it with the transaction that makes the change,
// so the event commits or rolls back together with it. Webhook delivery reads from this table.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { events } from './tables.ts';

export interface RecordedEvent {
  id: string;
  companyId: string;
  type: string;
  data: unknown;
  occurredAt: Date;
}

export async function recordEvent(
  tx: Db,
  event: { companyId: string; type: string; data: unknown; occurredAt: Date },
): Promise<RecordedEvent> {
  const row = { id: randomUUID(), ...event };
  await tx.insert(events).values(row);
  return row;
}
