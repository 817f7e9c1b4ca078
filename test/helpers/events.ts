// Outbox events for delivery tests. The worker fans out and sends whatever `data` an event holds,
// so these tests record events with made-up payloads; services can only record catalogued events
// with their real payload type (src/infra/outbox/record-event.ts), which this helper steps around.
import type { Db } from '../../src/db/client.ts';
import { recordEvent, type RecordedEvent } from '../../src/infra/outbox/record-event.ts';

export const recordTestEvent = recordEvent as unknown as (
  tx: Db,
  event: { companyId: string; type: string; data: unknown; occurredAt: Date },
) => Promise<RecordedEvent>;
