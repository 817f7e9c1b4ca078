// Delivery through the worker to a real local HTTP receiver. Worker passes are run directly
// (runWebhookWorkerOnce) and retries are reached by moving the test clock, never by waiting.
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { recordTestEvent } from '../helpers/events.ts';
import {
  attemptDelivery,
  claimDeliveries,
  dispatchEventBatch,
  runWebhookWorkerLoop,
  runWebhookWorkerOnce,
  type WorkerDeps,
} from '../../src/modules/webhooks/delivery-worker.ts';
import { createWebhookTransport, type WebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { DAY_MS } from '../helpers/clock.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { eventually, startReceiver, type ReceivedRequest, type Receiver } from './receiver.ts';

const HOUR_MS = 60 * 60 * 1000;
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
  receiver.handler = () => ({ status: 200, body: 'ok' });
  // Each test starts with nothing left to send from the ones before.
  await t.ctx.db.execute(sql`UPDATE webhook_subscriptions SET active = false`);
});
afterAll(async () => {
  await transport.close();
  await receiver.close();
  await t.close();
});

function deps(overrides: Partial<WorkerDeps> = {}): WorkerDeps {
  // random 0.5: no jitter, so retries fall due exactly on the schedule.
  return { db: t.ctx.db, clock: t.clock, secrets: t.ctx.secrets, transport, log: silentLog, leaseMs: 60_000, concurrency: 10, random: () => 0.5, ...overrides };
}

const work = (overrides: Partial<WorkerDeps> = {}) => runWebhookWorkerOnce(deps(overrides));

/** Records an event the way services do: inside the transaction that makes the change. */
async function emit(companyId: string, type: string, data: unknown) {
  return t.ctx.db.transaction((tx) => recordTestEvent(tx, { companyId, type, data, occurredAt: t.clock.now() }));
}

async function subscribe(tenant: Tenant, events: string[], path = '/hooks') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/public/v1/webhooks',
    headers: tenant.headers,
    payload: { url: `${receiver.origin}${path}`, events },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; secret: string };
}

async function api(tenant: Tenant, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: tenant.headers, ...(payload ? { payload } : {}) });
}

async function deliveriesOf(tenant: Tenant, subscriptionId: string) {
  const res = await api(tenant, 'GET', `/public/v1/webhooks/${subscriptionId}/deliveries`);
  expect(res.statusCode).toBe(200);
  return res.json().data as Array<Record<string, unknown> & { id: string; attempts: Array<Record<string, unknown>> }>;
}

function requestsTo(path: string): ReceivedRequest[] {
  return receiver.requests.filter((r) => r.path === path);
}

function verify(secret: string, request: ReceivedRequest) {
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as Record<string, unknown>;
}

describe('delivery', () => {
  it('fans an event out only to subscriptions that existed when it occurred, even before fan-out ran', async () => {
    const tenant = await t.tenant();
    await subscribe(tenant, ['candidate.created'], '/fan-out-before');
    await emit(tenant.companyId, 'candidate.created', { candidate: { id: 'c-before' } });
    // The event is still in the outbox (no worker ran) when the second subscription is made.
    t.clock.advance(1000);
    const later = await subscribe(tenant, ['candidate.created'], '/fan-out-after');
    await work();
    expect(requestsTo('/fan-out-before')).toHaveLength(1);
    expect(requestsTo('/fan-out-after')).toHaveLength(0);
    expect(await deliveriesOf(tenant, later.id)).toEqual([]);

    // It does get what happens after it was made.
    await emit(tenant.companyId, 'candidate.created', { candidate: { id: 'c-after' } });
    await work();
    expect(requestsTo('/fan-out-after')).toHaveLength(1);
  });

  it('sends application.created and application.status_changed signed; the standardwebhooks package verifies them', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(tenant, ['application.created', 'application.status_changed'], '/signed');
    const application = { id: '3c3e3a52-5d1c-4bb8-9a53-8d9e1b0f0a11', status: 'ACTIVE', candidateId: 'c1' };
    const created = await emit(tenant.companyId, 'application.created', { application });
    const changed = await emit(tenant.companyId, 'application.status_changed', {
      application: { ...application, status: 'INTERVIEW' },
      previousStatus: 'ACTIVE',
      newStatus: 'INTERVIEW',
      reason: 'Strong portfolio',
    });
    await emit(tenant.companyId, 'job_listing.created', { jobListing: { id: 'not subscribed' } });

    await work();
    const received = requestsTo('/signed');
    expect(received).toHaveLength(2);
    const payloads = received.map((request) => verify(sub.secret, request));
    const byType = Object.fromEntries(payloads.map((p) => [p.type, p]));
    expect(byType['application.created']).toEqual({
      id: created.id,
      type: 'application.created',
      timestamp: created.occurredAt.toISOString(),
      companyId: tenant.companyId,
      data: { application },
    });
    expect(byType['application.status_changed']).toMatchObject({
      id: changed.id,
      data: { previousStatus: 'ACTIVE', newStatus: 'INTERVIEW', reason: 'Strong portfolio' },
    });
    for (const request of received) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-id']).toBe((JSON.parse(request.body) as { id: string }).id);
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    }
    // A tampered body or another secret fails verification.
    expect(() => new Webhook(sub.secret).verify(received[0].body.replace('"', ' "'), received[0].headers as Record<string, string>)).toThrow();

    const log = await deliveriesOf(tenant, sub.id);
    expect(log.map((d) => d.status)).toEqual(['DELIVERED', 'DELIVERED']);
    expect(log[0].attempts).toHaveLength(1);
    expect(log[0].attempts[0]).toMatchObject({ statusCode: 200, responseBody: 'ok', error: null });

    // Nothing is sent twice by a later pass.
    await work();
    expect(requestsTo('/signed')).toHaveLength(2);
  });

  it('sends only to the event’s own company, to active subscriptions that list the event', async () => {
    const tenant = await t.tenant();
    const other = await t.tenant();
    await subscribe(tenant, ['candidate.created'], '/mine');
    await subscribe(other, ['candidate.created'], '/theirs');
    const paused = await subscribe(tenant, ['candidate.created'], '/paused');
    await api(tenant, 'PATCH', `/public/v1/webhooks/${paused.id}`, { active: false });
    await emit(tenant.companyId, 'candidate.created', { candidate: { id: 'c' } });
    await work();
    expect(requestsTo('/mine')).toHaveLength(1);
    expect(requestsTo('/theirs')).toHaveLength(0);
    expect(requestsTo('/paused')).toHaveLength(0);
  });

  it('sends nothing for a change that was rolled back', async () => {
    const tenant = await t.tenant();
    await subscribe(tenant, ['application.created'], '/rollback');
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await recordTestEvent(tx, { companyId: tenant.companyId, type: 'application.created', data: {}, occurredAt: t.clock.now() });
        throw new Error('the change failed after the event was recorded');
      }),
    ).rejects.toThrow('the change failed');
    const result = await work();
    expect(result.dispatched).toBe(0);
    expect(requestsTo('/rollback')).toHaveLength(0);
    const rows = await queryRows(t.ctx.db, sql`SELECT id FROM events WHERE company_id = ${tenant.companyId}`);
    expect(rows).toHaveLength(0);
  });

  it('retries a 500 on the schedule: the receiver gets the same webhook-id twice', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(tenant, ['application.created'], '/flaky');
    receiver.handler = (request) =>
      requestsTo('/flaky').length === 1 && request.path === '/flaky' ? { status: 500, body: 'boom' } : { status: 200, body: 'ok' };
    const event = await emit(tenant.companyId, 'application.created', { application: { id: 'a' } });

    await work();
    expect(requestsTo('/flaky')).toHaveLength(1);
    let [delivery] = await deliveriesOf(tenant, sub.id);
    expect(delivery).toMatchObject({ status: 'PENDING', attemptCount: 1 });
    expect(new Date(delivery.nextAttemptAt as string).getTime() - t.clock.now().getTime()).toBeGreaterThan(3_000);

    await work(); // not due yet
    expect(requestsTo('/flaky')).toHaveLength(1);

    t.clock.advance(6_000); // the first retry comes after 5 s (+-20%)
    await work();
    const received = requestsTo('/flaky');
    expect(received).toHaveLength(2);
    expect(received.map((r) => r.headers['webhook-id'])).toEqual([event.id, event.id]);
    expect(received[0].body).toBe(received[1].body);
    for (const request of received) expect(verify(sub.secret, request).id).toBe(event.id);

    [delivery] = await deliveriesOf(tenant, sub.id);
    expect(delivery).toMatchObject({ status: 'DELIVERED', attemptCount: 2, nextAttemptAt: null, eventId: event.id });
    expect(delivery.attempts.map((a) => [a.statusCode, a.responseBody])).toEqual([
      [500, 'boom'],
      [200, 'ok'],
    ]);
    expect(typeof delivery.attempts[0].durationMs).toBe('number');
  });

  it('disables the subscription at once on 410 Gone', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(tenant, ['job_listing.published'], '/gone');
    receiver.handler = () => ({ status: 410, body: 'unsubscribed' });
    await emit(tenant.companyId, 'job_listing.published', { jobListing: { id: 'j1' } });
    await work();
    expect(requestsTo('/gone')).toHaveLength(1);

    const got = (await api(tenant, 'GET', `/public/v1/webhooks/${sub.id}`)).json();
    expect(got).toMatchObject({ active: false, disabledReason: 'ENDPOINT_GONE' });
    const [delivery] = await deliveriesOf(tenant, sub.id);
    expect(delivery).toMatchObject({ status: 'FAILED', nextAttemptAt: null });

    // No retry, and later events are not sent.
    await emit(tenant.companyId, 'job_listing.published', { jobListing: { id: 'j2' } });
    t.clock.advance(HOUR_MS);
    await work();
    t.clock.advance(-HOUR_MS);
    expect(requestsTo('/gone')).toHaveLength(1);

    // Switching it back on clears the reason.
    const resumed = (await api(tenant, 'PATCH', `/public/v1/webhooks/${sub.id}`, { active: true })).json();
    expect(resumed).toMatchObject({ active: true, disabledReason: null });
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(tenant, ['job_listing.closed'], '/moved');
    receiver.handler = (request) =>
      request.path === '/moved' ? { status: 302, headers: { location: `${receiver.origin}/elsewhere` } } : { status: 200 };
    await emit(tenant.companyId, 'job_listing.closed', { jobListing: { id: 'j' } });
    await work();
    expect(requestsTo('/moved')).toHaveLength(1);
    expect(requestsTo('/elsewhere')).toHaveLength(0);
    const [delivery] = await deliveriesOf(tenant, sub.id);
    expect(delivery).toMatchObject({ status: 'PENDING', attemptCount: 1 });
    expect(delivery.attempts[0]).toMatchObject({ statusCode: 302, error: 'REDIRECT_NOT_FOLLOWED' });
  });

  it('keeps at most 20 KB of the response body', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(tenant, ['job_listing.archived'], '/big');
    receiver.handler = () => ({ status: 200, body: 'é'.repeat(60_000) });
    await emit(tenant.companyId, 'job_listing.archived', {});
    await work();
    const [delivery] = await deliveriesOf(tenant, sub.id);
    const kept = delivery.attempts[0].responseBody as string;
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(20 * 1024 + 2);
    expect(kept.length).toBeGreaterThan(10_000 - 2);
  });

  it('gives up after the last retry, and redeliver sends it again with the same webhook-id', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(tenant, ['job_listing.deleted'], '/down');
    receiver.handler = () => ({ status: 503, body: 'down' });
    const event = await emit(tenant.companyId, 'job_listing.deleted', { jobListingId: 'j' });
    let moved = 0;
    await work();
    for (let i = 0; i < 7; i++) {
      t.clock.advance(12 * HOUR_MS); // longer than any single retry delay
      moved += 12 * HOUR_MS;
      await work();
    }
    try {
      expect(requestsTo('/down')).toHaveLength(8);
      let [delivery] = await deliveriesOf(tenant, sub.id);
      expect(delivery).toMatchObject({ status: 'FAILED', attemptCount: 8, nextAttemptAt: null });
      // 3.5 days of failures: not yet long enough to disable.
      expect((await api(tenant, 'GET', `/public/v1/webhooks/${sub.id}`)).json().active).toBe(true);

      t.clock.advance(HOUR_MS);
      moved += HOUR_MS;
      await work();
      expect(requestsTo('/down')).toHaveLength(8);

      receiver.handler = () => ({ status: 200, body: 'back' });
      const res = await api(tenant, 'POST', `/public/v1/webhooks/${sub.id}/deliveries/${delivery.id}/redeliver`);
      expect(res.statusCode).toBe(202);
      expect(res.json()).toMatchObject({ id: delivery.id, status: 'PENDING', attemptCount: 8 });
      expect(res.json().attempts).toHaveLength(8);
      await work();
      const received = requestsTo('/down');
      expect(received).toHaveLength(9);
      expect(new Set(received.map((r) => r.headers['webhook-id']))).toEqual(new Set([event.id]));
      [delivery] = await deliveriesOf(tenant, sub.id);
      expect(delivery).toMatchObject({ status: 'DELIVERED', attemptCount: 9 });

      const missing = '00000000-0000-4000-8000-000000000000';
      expect((await api(tenant, 'POST', `/public/v1/webhooks/${sub.id}/deliveries/${missing}/redeliver`)).statusCode).toBe(404);
    } finally {
      t.clock.advance(-moved);
    }
  });

  it('refuses to redeliver to an inactive subscription (409)', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(tenant, ['candidate.created'], '/inactive');
    await emit(tenant.companyId, 'candidate.created', {});
    await work();
    const [delivery] = await deliveriesOf(tenant, sub.id);
    await api(tenant, 'PATCH', `/public/v1/webhooks/${sub.id}`, { active: false });
    const res = await api(tenant, 'POST', `/public/v1/webhooks/${sub.id}/deliveries/${delivery.id}/redeliver`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('CONFLICT');
  });

  it('disables a subscription whose attempts have failed for five days in a row', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(tenant, ['application.created'], '/failing');
    receiver.handler = () => ({ status: 500 });
    let moved = 0;
    try {
      await emit(tenant.companyId, 'application.created', { n: 1 });
      await work();
      for (let day = 1; day <= 5; day++) {
        t.clock.advance(DAY_MS);
        moved += DAY_MS;
        await emit(tenant.companyId, 'application.created', { n: day + 1 });
        await work();
        const got = (await api(tenant, 'GET', `/public/v1/webhooks/${sub.id}`)).json();
        expect(got.active, `day ${day}`).toBe(day < 5);
      }
      const got = (await api(tenant, 'GET', `/public/v1/webhooks/${sub.id}`)).json();
      expect(got.disabledReason).toBe('FAILING');
      const sent = requestsTo('/failing').length;
      t.clock.advance(DAY_MS);
      moved += DAY_MS;
      await work();
      expect(requestsTo('/failing')).toHaveLength(sent);
    } finally {
      t.clock.advance(-moved);
    }
  });

  it('a success ends the run of failures, so intermittent failures never disable', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(tenant, ['application.created'], '/intermittent');
    let moved = 0;
    try {
      for (let day = 0; day <= 6; day++) {
        receiver.handler = () => ({ status: day % 2 === 0 ? 500 : 200 });
        await emit(tenant.companyId, 'application.created', { day });
        await work();
        t.clock.advance(DAY_MS);
        moved += DAY_MS;
      }
      expect((await api(tenant, 'GET', `/public/v1/webhooks/${sub.id}`)).json().active).toBe(true);
    } finally {
      t.clock.advance(-moved);
    }
  });

  it('signs with the old and the new secret for 24 hours after a rotation', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(tenant, ['job_listing.updated'], '/rotated');
    const rotated = (await api(tenant, 'POST', `/public/v1/webhooks/${sub.id}/rotate-secret`)).json() as { secret: string };
    await emit(tenant.companyId, 'job_listing.updated', { v: 1 });
    await work();
    const [first] = requestsTo('/rotated');
    expect((first.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(verify(rotated.secret, first).type).toBe('job_listing.updated');
    expect(verify(sub.secret, first).type).toBe('job_listing.updated');

    t.clock.advance(25 * HOUR_MS);
    try {
      await emit(tenant.companyId, 'job_listing.updated', { v: 2 });
      await work();
    } finally {
      t.clock.advance(-25 * HOUR_MS);
    }
    const second = requestsTo('/rotated')[1];
    const signatures = (second.headers['webhook-signature'] as string).split(' ');
    expect(signatures).toHaveLength(1);
    // Checked with the official package's signer: its verify() also checks the (moved) timestamp.
    const timestamp = new Date(Number(second.headers['webhook-timestamp']) * 1000);
    const id = second.headers['webhook-id'] as string;
    expect(new Webhook(rotated.secret).sign(id, timestamp, second.body)).toBe(signatures[0]);
    expect(new Webhook(sub.secret).sign(id, timestamp, second.body)).not.toBe(signatures[0]);
  });

  it('records a timeout when the receiver does not answer in time', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(tenant, ['candidate.created'], '/slow');
    receiver.handler = () => ({ status: 200, delayMs: 1_000 });
    const quick = createWebhookTransport({ allowLocal: true, timeoutMs: 150 });
    try {
      await emit(tenant.companyId, 'candidate.created', {});
      await work({ transport: quick });
    } finally {
      await quick.close();
    }
    const [delivery] = await deliveriesOf(tenant, sub.id);
    expect(delivery).toMatchObject({ status: 'PENDING', attemptCount: 1 });
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: 'TIMEOUT' });
  });

  it('lists deliveries newest first, paginated', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(tenant, ['job_listing.created'], '/log');
    const ids = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await emit(tenant.companyId, 'job_listing.created', { i })).id);
      await work();
      t.clock.advance(1000);
    }
    const res = await api(tenant, 'GET', `/public/v1/webhooks/${sub.id}/deliveries?size=2`);
    const page = res.json();
    expect(page.pagination).toEqual({ page: 0, size: 2, totalElements: 3, totalPages: 2, nextCursor: expect.any(String) });
    expect(page.data.map((d: { eventId: string }) => d.eventId)).toEqual([ids[2], ids[1]]);
    expect(Object.keys(page.data[0]).sort()).toEqual(
      ['attemptCount', 'attempts', 'createdAt', 'eventId', 'eventType', 'id', 'nextAttemptAt', 'payload', 'status', 'subscriptionId', 'updatedAt'].sort(),
    );
    expect(Object.keys(page.data[0].attempts[0]).sort()).toEqual(
      ['attemptedAt', 'durationMs', 'error', 'id', 'responseBody', 'statusCode'].sort(),
    );
    expect(JSON.parse(page.data[0].payload).id).toBe(ids[2]);
    const delivered = await api(tenant, 'GET', `/public/v1/webhooks/${sub.id}/deliveries?status=FAILED`);
    expect(delivered.json().data).toEqual([]);
    expect((await api(tenant, 'GET', `/public/v1/webhooks/${sub.id}/deliveries?status=LOST`)).statusCode).toBe(422);
  });
});

describe('leases', () => {
  it('gives a claimed delivery to no other worker until its lease runs out, then retries it', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(tenant, ['application.created'], '/lease');
    await emit(tenant.companyId, 'application.created', {});
    const worker = deps({ leaseMs: 30_000 });
    await dispatchEventBatch(worker);
    const claimed = await claimDeliveries(worker, 10);
    expect(claimed.map((c) => c.delivery.subscriptionId)).toEqual([sub.id]);
    // This worker "dies" here: it never sends and never reports.
    expect(await claimDeliveries(worker, 10)).toEqual([]);
    await work();
    expect(requestsTo('/lease')).toHaveLength(0);

    t.clock.advance(31_000);
    try {
      await work();
      expect(requestsTo('/lease')).toHaveLength(1);
      // The dead worker waking up late cannot overwrite the new outcome.
      receiver.handler = () => ({ status: 500 });
      await attemptDelivery(worker, claimed[0]);
      const [delivery] = await deliveriesOf(tenant, sub.id);
      expect(delivery.status).toBe('DELIVERED');
      expect(delivery.attempts.map((a) => a.statusCode)).toEqual([200, 500]);
      // Nor count a failure against the subscription: the new holder's success stands there too.
      const [subscription] = await queryRows<{ consecutive_failures: number; failing_since: unknown }>(
        t.ctx.db,
        sql`SELECT consecutive_failures, failing_since FROM webhook_subscriptions WHERE id = ${sub.id}`,
      );
      expect(subscription).toEqual({ consecutive_failures: 0, failing_since: null });
    } finally {
      t.clock.advance(-31_000);
    }
  });
});

describe('leases, with outcomes written together', () => {
  it('a success reported after the lease ran out is kept as an attempt and changes nothing else', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(tenant, ['application.created'], '/late-success');
    await emit(tenant.companyId, 'application.created', {});
    const worker = deps({ leaseMs: 30_000 });
    await dispatchEventBatch(worker);
    const claimed = await claimDeliveries(worker, 10);
    expect(claimed).toHaveLength(1);

    t.clock.advance(31_000);
    try {
      // Another worker takes it over and fails it: a retry is due later.
      receiver.handler = () => ({ status: 500 });
      await work();
      // The first worker wakes up late with a success; its lease is gone, so the failure stands.
      receiver.handler = () => ({ status: 200 });
      await attemptDelivery(worker, claimed[0]);
      const [delivery] = await deliveriesOf(tenant, sub.id);
      expect(delivery.status).toBe('PENDING');
      expect(delivery.attemptCount).toBe(1);
      expect(delivery.attempts.map((a) => a.statusCode).sort()).toEqual([200, 500]);
    } finally {
      t.clock.advance(-31_000);
    }
  });
});

describe('the worker loop', () => {
  it('is woken by the commit of an event: delivered long before its (one-minute) poll', async () => {
    const tenant = await t.tenant();
    await subscribe(tenant, ['application.created'], '/woken');
    const loop = runWebhookWorkerLoop(deps(), { pollMs: 60_000, notifications: t.ctx.notifications });
    try {
      // Let the loop make its first pass and start waiting on its poll.
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (let n = 1; n <= 3; n++) {
        const started = performance.now();
        await emit(tenant.companyId, 'application.created', { n });
        await eventually(() => requestsTo('/woken').length === n, 10_000, `delivery ${n}`);
        // Without the wake it would wait for the poll: a minute.
        expect(performance.now() - started).toBeLessThan(10_000);
      }
    } finally {
      await loop.stop();
    }
  });

  // PGlite serves one transaction at a time: nothing commits beside anything there.
  it.skipIf(!process.env.DATABASE_URL)('finds an event committed beside the notifying commit, which sent no notification of its own', async () => {
    const tenant = await t.tenant();
    await subscribe(tenant, ['application.created'], '/beside');
    const loop = runWebhookWorkerLoop(deps(), { pollMs: 60_000, notifications: t.ctx.notifications });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      // A transaction committing holds the notifier's lock (migration 0024)...
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let taken!: () => void;
      const lockTaken = new Promise<void>((resolve) => (taken = resolve));
      const notifier = t.ctx.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('events_recorded'), 0)`);
        taken();
        await released;
      });
      await lockTaken;
      // ...its notification wakes the loop, which fans out and finds nothing yet...
      await t.ctx.db.execute(sql`select pg_notify('events_recorded', '')`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      // ...then an event commits beside it: its transaction cannot take the lock, so it notifies no one.
      await emit(tenant.companyId, 'application.created', { n: 1 });
      release();
      await notifier;
      // Without the rechecks after a wake it would wait for the poll: a minute.
      await eventually(() => requestsTo('/beside').length === 1, 10_000, 'the delivery');
    } finally {
      await loop.stop();
    }
  });

  it('delivers on its own while running, and stop() lets the send in flight finish', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(tenant, ['application.created'], '/loop');
    receiver.handler = () => ({ status: 200, body: 'ok', delayMs: 200 });
    const loop = runWebhookWorkerLoop(deps(), { pollMs: 20 });
    try {
      await emit(tenant.companyId, 'application.created', { n: 1 });
      await eventually(() => requestsTo('/loop').length === 1, 5_000, 'the first delivery');
    } finally {
      await loop.stop(); // the receiver is still holding its answer: stop waits for it
    }
    const [delivery] = await deliveriesOf(tenant, sub.id);
    expect(delivery).toMatchObject({ status: 'DELIVERED', attemptCount: 1 });

    // Stopped: nothing more is sent.
    await emit(tenant.companyId, 'application.created', { n: 2 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(requestsTo('/loop')).toHaveLength(1);
  });
});
