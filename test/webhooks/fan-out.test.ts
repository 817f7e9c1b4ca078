// Fan-out of outbox events into deliveries must make progress whatever one company does: many
// subscriptions times many events stays within PostgreSQL's statement limits, and one event whose
// fan-out fails is set aside for later instead of rolling back everyone's batch forever.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { recordTestEvent } from '../helpers/events.ts';
import { dispatchEventBatch, runWebhookWorkerOnce, type WorkerDeps } from '../../src/modules/webhooks/delivery-worker.ts';
import { createWebhookTransport, type WebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const silentLog = { debug() {}, info() {}, warn() {}, error() {} };

let t: TestApp;
let transport: WebhookTransport;
let receiver: Receiver;

beforeAll(async () => {
  t = await buildTestApp();
  transport = createWebhookTransport({ allowLocal: true });
  receiver = await startReceiver();
});
afterEach(async () => {
  await t.ctx.db.execute(sql`UPDATE webhook_subscriptions SET active = false`);
  await t.ctx.db.execute(sql`UPDATE events SET dispatched_at = now() WHERE dispatched_at IS NULL`);
});
afterAll(async () => {
  await transport.close();
  await receiver.close();
  await t.close();
});

function deps(overrides: Partial<WorkerDeps> = {}): WorkerDeps {
  return { db: t.ctx.db, clock: t.clock, secrets: t.ctx.secrets, transport, log: silentLog, leaseMs: 60_000, concurrency: 10, random: () => 0.5, ...overrides };
}

async function emit(companyId: string, type: string, data: unknown) {
  return t.ctx.db.transaction((tx) => recordTestEvent(tx, { companyId, type, data, occurredAt: t.clock.now() }));
}

async function subscribe(tenant: Tenant, path: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/public/v1/webhooks',
    headers: tenant.headers,
    payload: { url: `${receiver.origin}${path}`, events: ['candidate.created'] },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string };
}

/** Subscriptions written straight to the table: faster than the API, and past its cap if asked. */
async function insertSubscriptions(companyId: string, count: number, path: string) {
  const created = new Date(t.clock.now().getTime() - 1000).toISOString();
  await t.ctx.db.execute(sql`
    INSERT INTO webhook_subscriptions (id, company_id, url, events, active, secret, created_at, updated_at)
    SELECT gen_random_uuid(), ${companyId}::uuid, ${`${receiver.origin}${path}`}, ARRAY['candidate.created'], true,
           'whsec_' || md5(random()::text), ${created}::timestamptz, ${created}::timestamptz
    FROM generate_series(1, ${count})`);
}

async function deliveryCount(eventIds: string[]) {
  const [{ n }] = await queryRows<{ n: number }>(
    t.ctx.db,
    sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = ANY(${`{${eventIds.join(',')}}`}::uuid[])`,
  );
  return n;
}

async function dispatchAll() {
  for (let n = await dispatchEventBatch(deps()); n > 0; n = await dispatchEventBatch(deps()));
}

describe('fan-out', () => {
  it('fans 100 events out to 60 subscriptions (6,000 deliveries) without stalling another company', async () => {
    const busy = await t.tenant();
    const other = await t.tenant();
    await insertSubscriptions(busy.companyId, 60, '/busy');
    const busyEvents = [];
    for (let i = 0; i < 100; i++) busyEvents.push((await emit(busy.companyId, 'candidate.created', { i })).id);
    await subscribe(other, '/other');
    const otherEvent = await emit(other.companyId, 'candidate.created', { n: 1 });

    await dispatchAll();
    expect(await deliveryCount([otherEvent.id])).toBe(1);
    expect(await deliveryCount(busyEvents)).toBe(6000);
    const [{ pending }] = await queryRows<{ pending: number }>(
      t.ctx.db,
      sql`SELECT count(*)::int AS pending FROM events WHERE dispatched_at IS NULL`,
    );
    expect(pending).toBe(0);
  });

  it('sets a poisoned event aside (retried later) and fans out the others', async () => {
    const tenant = await t.tenant();
    await subscribe(tenant, '/poison');
    // A fault tied to one event's data, from the real database: its deliveries cannot be written.
    await t.ctx.db.execute(sql`
      CREATE OR REPLACE FUNCTION test_refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.payload LIKE '%"poison":true%' THEN RAISE EXCEPTION 'poisoned event'; END IF;
        RETURN NEW;
      END $$`);
    await t.ctx.db.execute(sql`
      CREATE TRIGGER test_refuse_poison BEFORE INSERT ON webhook_deliveries
      FOR EACH ROW EXECUTE FUNCTION test_refuse_poison()`);
    try {
      const poisoned = await emit(tenant.companyId, 'candidate.created', { poison: true });
      const healthy = await emit(tenant.companyId, 'candidate.created', { poison: false });

      const errors: object[] = [];
      const log = { debug() {}, info() {}, warn() {}, error: (fields: object) => errors.push(fields) };
      await runWebhookWorkerOnce(deps({ log }));
      expect(await deliveryCount([healthy.id])).toBe(1);
      expect(await deliveryCount([poisoned.id])).toBe(0);
      expect(receiver.requests.filter((r) => r.path === '/poison')).toHaveLength(1);
      expect(errors).toEqual([expect.objectContaining({ eventId: poisoned.id })]);

      // Set aside, not retried on every poll: the next pass leaves it alone.
      expect(await dispatchEventBatch(deps({ log }))).toBe(0);
      expect(errors).toHaveLength(1);

      // Once the fault is gone and its retry time has come, it goes out like any other.
      await t.ctx.db.execute(sql`DROP TRIGGER test_refuse_poison ON webhook_deliveries`);
      t.clock.advance(60 * 60 * 1000);
      await dispatchAll();
      expect(await deliveryCount([poisoned.id])).toBe(1);
    } finally {
      await t.ctx.db.execute(sql`DROP TRIGGER IF EXISTS test_refuse_poison ON webhook_deliveries`);
    }
  });
});

describe('subscription cap', () => {
  it('allows 100 subscriptions per company; the 101st is 422 in the envelope', async () => {
    const tenant = await t.tenant();
    await insertSubscriptions(tenant.companyId, 99, '/cap');
    await subscribe(tenant, '/cap-100');
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/v1/webhooks',
      headers: tenant.headers,
      payload: { url: `${receiver.origin}/cap-101`, events: ['candidate.created'] },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      status: 422,
      error: 'VALIDATION_ERROR',
      message: expect.stringContaining('100 webhook subscriptions'),
      path: '/public/v1/webhooks',
    });
    // Another company is not affected by this one's count.
    await subscribe(await t.tenant(), `/cap-other-${randomUUID()}`);
  });
});
