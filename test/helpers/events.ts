// Outbox events for delivery tests, and a wait for the event feed. The worker fans out and sends
// whatever `data` an event holds, so these tests record events with made-up payloads; services can
// only record catalogued events with their real payload type (src/infra/outbox/record-event.ts),
// which recordTestEvent steps around.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../src/db/client.ts';
import { recordEvent, type RecordedEvent } from '../../src/infra/outbox/record-event.ts';
import type { TestApp } from './test-app.ts';

export const recordTestEvent = recordEvent as unknown as (
  tx: Db,
  event: { companyId: string; type: string; data: unknown; occurredAt: Date },
) => Promise<RecordedEvent>;

/**
 * Waits until the event feed shows every event the company has. The feed holds back events while an
 * older writing transaction is still running, and on PostgreSQL that is any in the cluster: another
 * test file's database on the same server (docs/decisions.md, "Commit-safe order") can delay it.
 */
export async function feedSettled(t: TestApp, companyId: string, headers: Record<string, string>): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [{ n }] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from events where company_id = ${companyId}`);
    const res = await t.app.inject({ method: 'GET', url: '/public/v1/events?size=1', headers });
    if (res.statusCode !== 200) throw new Error(`the feed answered ${res.statusCode}: ${res.body}`);
    const shown = (res.json() as { pagination: { totalElements: number } }).pagination.totalElements;
    if (shown === n) return;
    if (Date.now() > deadline) throw new Error(`the feed shows ${shown} of ${n} events after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
