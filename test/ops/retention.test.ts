// Retention: the worker's sweep deletes dispatched events and finished deliveries (with their
// attempts) after 30 days and idempotency keys after 24 hours, in bounded batches, and never what
// is still needed (undispatched events, pending deliveries). Time moves on the test clock.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { queryRows } from '../../src/db/client.ts';
import { sweepRetention } from '../../src/maintenance/retention.ts';
import { startScheduledWork } from '../../src/scheduled-work.ts';
import { recordTestEvent } from '../helpers/events.ts';
import { runWebhookWorkerOnce } from '../../src/modules/webhooks/delivery-worker.ts';
import { createWebhookTransport, type WebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { DAY_MS } from '../helpers/clock.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

const HOUR_MS = 60 * 60 * 1000;
const silentLog = { debug() {}, info() {}, warn() {}, error() {} };
const defaults = loadConfig({}).retention;

let t: TestApp;
let transport: WebhookTransport;
let receiver: Receiver;

beforeAll(async () => {
  t = await buildTestApp();
  transport = createWebhookTransport({ allowLocal: true });
  receiver = await startReceiver((request) => (request.path === '/down' ? { status: 503 } : { status: 200, body: 'ok' }));
});
afterAll(async () => {
  await transport.close();
  await receiver.close();
  await t.close();
});

async function counts(companyId: string) {
  const [row] = await queryRows<Record<string, number>>(
    t.ctx.db,
    sql`SELECT
      (SELECT count(*)::int FROM events WHERE company_id = ${companyId} AND dispatched_at IS NOT NULL) AS dispatched,
      (SELECT count(*)::int FROM events WHERE company_id = ${companyId} AND dispatched_at IS NULL) AS undispatched,
      (SELECT count(*)::int FROM webhook_deliveries WHERE company_id = ${companyId} AND status = 'DELIVERED') AS delivered,
      (SELECT count(*)::int FROM webhook_deliveries WHERE company_id = ${companyId} AND status = 'PENDING') AS pending,
      (SELECT count(*)::int FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
         WHERE d.company_id = ${companyId}) AS attempts,
      (SELECT count(*)::int FROM idempotency_keys WHERE company_id = ${companyId}) AS idempotency`,
  );
  return row!;
}

async function subscribe(tenant: Tenant, path: string, events: string[]) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/public/v1/webhooks',
    headers: tenant.headers,
    payload: { url: `${receiver.origin}${path}`, events },
  });
  expect(res.statusCode).toBe(201);
}

const emit = (companyId: string, type: string) =>
  t.ctx.db.transaction((tx) => recordTestEvent(tx, { companyId, type, data: {}, occurredAt: t.clock.now() }));

const work = () =>
  runWebhookWorkerOnce({ db: t.ctx.db, clock: t.clock, secrets: t.ctx.secrets, transport, log: silentLog, leaseMs: 60_000, concurrency: 10, random: () => 0.5 });

describe('retention sweep', () => {
  it('keeps everything younger than the ages, then deletes dispatched events, finished deliveries with attempts and old idempotency keys; never pending work', async () => {
    const tenant = await t.tenant();
    await subscribe(tenant, '/up', ['job_listing.updated']);
    await subscribe(tenant, '/down', ['job_listing.archived']);
    for (let i = 0; i < 3; i++) await emit(tenant.companyId, 'job_listing.updated');
    await emit(tenant.companyId, 'job_listing.archived'); // its delivery keeps failing: PENDING
    const created = await t.app.inject({
      method: 'POST',
      url: '/public/v1/job-listings',
      headers: { ...tenant.headers, 'idempotency-key': 'retention-1' },
      payload: { position: 'Welder', positionType: 'FULL_TIME', workPlaceType: 'ON_SITE' },
    });
    expect(created.statusCode, created.body).toBe(201);
    await work();
    const start = await counts(tenant.companyId);
    expect(start).toMatchObject({ delivered: 3, pending: 1, attempts: 4, idempotency: 1 });
    expect(start.dispatched).toBeGreaterThanOrEqual(4);

    const moved = { ms: 0 };
    const advance = (ms: number) => {
      t.clock.advance(ms);
      moved.ms += ms;
    };
    try {
      // 25 hours: only the idempotency key is past its age.
      advance(25 * HOUR_MS);
      expect(await sweepRetention(t.ctx, defaults)).toMatchObject({ idempotencyKeys: 1 });
      expect(await counts(tenant.companyId)).toMatchObject({ ...start, idempotency: 0 });

      // A fresh event, not yet dispatched, and 29 days: nothing else goes yet.
      advance(29 * DAY_MS - 25 * HOUR_MS);
      await emit(tenant.companyId, 'candidate.created');
      const at29 = await sweepRetention(t.ctx, defaults);
      expect(at29.events).toBe(0);
      expect(at29.webhookDeliveries).toBe(0);

      // 31 days: old dispatched events and the delivered deliveries (with their attempts) go; the
      // undispatched event and the still-pending delivery stay.
      advance(2 * DAY_MS);
      const at31 = await sweepRetention(t.ctx, defaults);
      expect(at31.events).toBeGreaterThanOrEqual(start.dispatched);
      expect(at31.webhookDeliveries).toBeGreaterThanOrEqual(3);
      expect(await counts(tenant.companyId)).toMatchObject({
        dispatched: 0,
        undispatched: 1,
        delivered: 0,
        pending: 1,
        attempts: 1,
        idempotency: 0,
      });
      // The delivery log through the API shows what is left.
      const hooks = (await t.app.inject({ url: '/public/v1/webhooks', headers: tenant.headers })).json().data as Array<{ id: string; url: string }>;
      const down = hooks.find((hook) => hook.url.endsWith('/down'))!;
      const log = await t.app.inject({ url: `/public/v1/webhooks/${down.id}/deliveries`, headers: tenant.headers });
      expect(log.json().data).toHaveLength(1);
    } finally {
      t.clock.advance(-moved.ms);
    }
  });

  it('deletes in bounded batches: one sweep stops after maxBatches, the next one carries on', async () => {
    const tenant = await t.tenant();
    for (let i = 0; i < 5; i++) await emit(tenant.companyId, 'job_listing.updated');
    await work(); // dispatches them (no subscription: no deliveries)
    t.clock.advance(31 * DAY_MS);
    try {
      const remaining = async () => (await counts(tenant.companyId)).dispatched;
      expect(await remaining()).toBe(5);
      expect((await sweepRetention(t.ctx, defaults, { batchSize: 2, maxBatches: 1 })).events).toBe(2);
      expect(await remaining()).toBe(3);
      expect((await sweepRetention(t.ctx, defaults, { batchSize: 2, maxBatches: 10 })).events).toBe(3);
      expect(await remaining()).toBe(0);
    } finally {
      t.clock.advance(-31 * DAY_MS);
    }
  });

  it('follows the configured ages', async () => {
    const config = loadConfig({ RETENTION_EVENTS_DAYS: '40', RETENTION_DELIVERIES_DAYS: '10', RETENTION_IDEMPOTENCY_HOURS: '48' });
    expect(config.retention).toEqual({ eventsDays: 40, deliveriesDays: 10, idempotencyHours: 48 });
    expect(() => loadConfig({ RETENTION_IDEMPOTENCY_HOURS: '1' })).toThrow(/RETENTION_IDEMPOTENCY_HOURS/);
    // The event feed promises 30 days of events.
    expect(() => loadConfig({ RETENTION_EVENTS_DAYS: '7' })).toThrow(/RETENTION_EVENTS_DAYS/);

    const tenant = await t.tenant();
    await emit(tenant.companyId, 'job_listing.updated');
    await work();
    // Older than the default 30 days, younger than the configured 40.
    t.clock.advance(35 * DAY_MS);
    try {
      expect((await sweepRetention(t.ctx, config.retention)).events).toBe(0);
      expect((await counts(tenant.companyId)).dispatched).toBe(1);
      expect((await sweepRetention(t.ctx, defaults)).events).toBeGreaterThanOrEqual(1);
      expect((await counts(tenant.companyId)).dispatched).toBe(0);
    } finally {
      t.clock.advance(-35 * DAY_MS);
    }
  });

  it('runs in the scheduled work, which logs what it deleted', async () => {
    const tenant = await t.tenant();
    await emit(tenant.companyId, 'job_listing.updated');
    await work();
    t.clock.advance(31 * DAY_MS);
    try {
      let done: (fields: Record<string, unknown>) => void = () => {};
      let failed: (error: unknown) => void = () => {};
      const swept = new Promise<Record<string, unknown>>((resolve, reject) => {
        done = resolve;
        failed = reject;
      });
      const log = {
        debug() {},
        warn() {},
        info: (fields: Record<string, unknown>) => {
          if (fields.sweep === 'retention') done(fields);
        },
        error: (fields: Record<string, unknown>) => failed(fields.err),
      };
      const scheduled = startScheduledWork(t.deps, log);
      try {
        await swept;
      } finally {
        await scheduled.stop();
      }
      expect((await swept).events).toBeGreaterThanOrEqual(1);
      expect((await counts(tenant.companyId)).dispatched).toBe(0);
    } finally {
      t.clock.advance(-31 * DAY_MS);
    }
  });
});
