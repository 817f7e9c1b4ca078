// One company's slow endpoints must not hold up another company's deliveries: claims are capped
// per subscription and per company and taken round-robin across companies, an endpoint that keeps
// failing has its circuit opened, and every attempt ends at a deadline the receiver cannot stretch
// (headers and body together) that starts once the request is on its connection.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { recordTestEvent } from '../helpers/events.ts';
import {
  claimDeliveries,
  dispatchEventBatch,
  runWebhookWorkerLoop,
  type WorkerDeps,
} from '../../src/modules/webhooks/delivery-worker.ts';
import { createWebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { eventually, startReceiver, type Receiver } from './receiver.ts';

const silentLog = { debug() {}, info() {}, warn() {}, error() {} };

let t: TestApp;
let receiver: Receiver;

/**
 * An endpoint that accepts every request and never answers (or, for /drip, drips a body forever);
 * /ok answers 204 at once (recording when each webhook-id arrived), /slow answers 200 after ?ms=.
 */
interface Stalling {
  origin: string;
  requests: string[];
  /** webhook-id -> Date.now() when an /ok request arrived. */
  ok: Map<string, number>;
  close(): Promise<void>;
}

async function startStallingServer(): Promise<Stalling> {
  const requests: string[] = [];
  const ok = new Map<string, number>();
  const sockets = new Set<Socket>();
  const drips = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res: ServerResponse) => {
    requests.push(req.url ?? '');
    req.resume();
    if (req.url?.startsWith('/ok')) {
      ok.set(String(req.headers['webhook-id']), Date.now());
      res.writeHead(204).end();
    } else if (req.url?.startsWith('/slow')) {
      const ms = Number(new URL(req.url, 'http://x').searchParams.get('ms'));
      const timer = setTimeout(() => res.writeHead(200).end('late'), ms);
      res.on('close', () => clearTimeout(timer));
    } else if (req.url?.startsWith('/drip')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('.'), 50);
      drips.add(timer);
      res.on('close', () => clearInterval(timer));
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    ok,
    async close() {
      for (const timer of drips) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let stalling: Stalling;

beforeAll(async () => {
  t = await buildTestApp();
  receiver = await startReceiver();
  stalling = await startStallingServer();
});
afterEach(async () => {
  await t.ctx.db.execute(sql`UPDATE webhook_subscriptions SET active = false`);
});
afterAll(async () => {
  await stalling.close();
  await receiver.close();
  await t.close();
});

async function emit(companyId: string, type: string, data: unknown) {
  return t.ctx.db.transaction((tx) => recordTestEvent(tx, { companyId, type, data, occurredAt: t.clock.now() }));
}

async function subscribe(tenant: Tenant, url: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/public/v1/webhooks',
    headers: tenant.headers,
    payload: { url, events: ['candidate.created'] },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string };
}

describe('fair scheduling', () => {
  it('delivers another company’s event while one company’s 60 deliveries hang on endpoints that never answer', async () => {
    const slow = await t.tenant();
    const other = await t.tenant();
    await subscribe(slow, `${stalling.origin}/hang-a`);
    await subscribe(slow, `${stalling.origin}/hang-b`);
    for (let i = 0; i < 30; i++) await emit(slow.companyId, 'candidate.created', { i });
    await subscribe(other, `${receiver.origin}/other`);
    await emit(other.companyId, 'candidate.created', { n: 1 });

    // A minute per attempt: without fair claims, the other company would wait for these.
    const transport = createWebhookTransport({ allowLocal: true, timeoutMs: 60_000 });
    const deps: WorkerDeps = {
      db: t.ctx.db,
      clock: t.clock,
      secrets: t.ctx.secrets,
      transport,
      log: silentLog,
      leaseMs: 120_000,
      concurrency: 10,
      perSubscriptionConcurrency: 2,
    };
    const loop = runWebhookWorkerLoop(deps, { pollMs: 20 });
    try {
      await eventually(() => receiver.requests.some((r) => r.path === '/other'), 15_000, 'the other company’s delivery');
      // Every one of the slow company's sends is still hanging: none of them made the other wait.
      const [{ finished }] = await queryRows<{ finished: number }>(
        t.ctx.db,
        sql`SELECT count(*)::int AS finished FROM webhook_delivery_attempts a
            JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.company_id = ${slow.companyId}::uuid`,
      );
      expect(finished).toBe(0);
      // At most two in flight per subscription, whatever the worker's free slots.
      await eventually(() => stalling.requests.length >= 4, 10_000, 'the slow sends');
      expect(stalling.requests.filter((path) => path === '/hang-a')).toHaveLength(2);
      expect(stalling.requests.filter((path) => path === '/hang-b')).toHaveLength(2);
    } finally {
      await stalling.close();
      stalling = await startStallingServer();
      await loop.stop();
      await transport.close();
    }
  });

  it('takes claims round-robin: each company’s first due delivery before any company’s second', async () => {
    const a = await t.tenant();
    const b = await t.tenant();
    const c = await t.tenant();
    for (const tenant of [a, b, c]) await subscribe(tenant, `${receiver.origin}/rr`);
    for (let i = 0; i < 5; i++) await emit(a.companyId, 'candidate.created', { i });
    await emit(b.companyId, 'candidate.created', {});
    await emit(c.companyId, 'candidate.created', {});
    const transport = createWebhookTransport({ allowLocal: true });
    const deps = { db: t.ctx.db, clock: t.clock, secrets: t.ctx.secrets, transport, log: silentLog, leaseMs: 60_000, concurrency: 10, perSubscriptionConcurrency: 5 };
    try {
      while ((await dispatchEventBatch(deps)) > 0);
      const claimed = await claimDeliveries(deps, 3);
      expect(claimed.map((x) => x.delivery.companyId).sort()).toEqual([a.companyId, b.companyId, c.companyId].sort());
    } finally {
      await transport.close();
    }
  });
});

describe('one company’s hanging receivers', () => {
  it('leave another company’s deliveries on the same origin prompt, and have their circuits opened, then probed one at a time', async () => {
    const hanging = await t.tenant();
    const other = await t.tenant();
    const hangs = ['/hang-x', '/hang-y', '/hang-z'];
    const subscriptions: Array<{ id: string }> = [];
    for (const path of hangs) subscriptions.push(await subscribe(hanging, `${stalling.origin}${path}`));
    for (let i = 0; i < 4; i++) await emit(hanging.companyId, 'candidate.created', { i });
    await subscribe(other, `${stalling.origin}/ok`);

    const warnings: Array<{ obj: Record<string, unknown>; msg?: string }> = [];
    const log = { ...silentLog, warn: (obj: object, msg?: string) => void warnings.push({ obj: obj as Record<string, unknown>, msg }) };
    const timeoutMs = 4_000;
    const transport = createWebhookTransport({ allowLocal: true, timeoutMs });
    const deps: WorkerDeps = {
      db: t.ctx.db,
      clock: t.clock,
      secrets: t.ctx.secrets,
      transport,
      log,
      leaseMs: 120_000,
      // Six slots and the default per-subscription cap (50): the hanging company's twelve
      // deliveries would take every slot but for its company cap of three.
      concurrency: 6,
      perCompanyConcurrency: 3,
      circuit: { failures: 2, cooldownMs: 60_000 },
    };
    const loop = runWebhookWorkerLoop(deps, { pollMs: 20 });
    try {
      await eventually(() => stalling.requests.length > 0, 10_000, 'the hanging company’s first sends');
      // The other company's events, while every send of the hanging company hangs.
      const emitted = new Map<string, number>();
      for (let i = 0; i < 5; i++) {
        const event = await emit(other.companyId, 'candidate.created', { n: i });
        emitted.set(event.id, Date.now());
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      await eventually(() => [...emitted.keys()].every((id) => stalling.ok.has(id)), 15_000, 'the other company’s deliveries');
      // Each well within the hanging sends' deadline: none waited for a slot or a connection.
      const waits = [...emitted].map(([id, at]) => stalling.ok.get(id)! - at);
      expect(Math.max(...waits)).toBeLessThan(timeoutMs / 2);

      // Two time-outs in a row open each endpoint's circuit; the log says so.
      await eventually(
        () => subscriptions.every((s) => warnings.some((w) => w.obj.subscriptionId === s.id && /circuit/.test(w.msg ?? ''))),
        25_000,
        'every hanging endpoint’s circuit opened',
      );
      // The delivery log shows the deferral: nothing is due before the circuit's cool-down ends.
      const now = t.clock.now().getTime();
      for (const subscription of subscriptions) {
        const res = await t.app.inject({ method: 'GET', url: `/public/v1/webhooks/${subscription.id}/deliveries?size=100`, headers: hanging.headers });
        const pending = (res.json() as { data: Array<{ status: string; nextAttemptAt: string }> }).data.filter((d) => d.status === 'PENDING');
        expect(pending).toHaveLength(4);
        for (const delivery of pending) expect(Date.parse(delivery.nextAttemptAt)).toBeGreaterThan(now + 40_000);
      }
      // While open, nothing is sent to them (their retries were due 5 s after each time-out).
      const sentTo = (path: string) => stalling.requests.filter((p) => p === path).length;
      await new Promise((resolve) => setTimeout(resolve, 500));
      const sentWhileOpen = hangs.map(sentTo);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(hangs.map(sentTo)).toEqual(sentWhileOpen);

      // After the cool-down: one probe per endpoint, not its backlog (a send from before the
      // circuit opened may still hang: the probe waits for it).
      t.clock.advance(61_000);
      await eventually(() => hangs.every((path, i) => sentTo(path) > sentWhileOpen[i]), timeoutMs + 6_000, 'the probes');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(hangs.map(sentTo)).toEqual(sentWhileOpen.map((n) => n + 1));
    } finally {
      await stalling.close();
      stalling = await startStallingServer();
      await loop.stop();
      await transport.close();
    }
  });
});

describe('per-attempt deadline', () => {
  it('does not count the wait for one of the origin’s connections against the deadline', async () => {
    const timeoutMs = 2_000;
    const transport = createWebhookTransport({ allowLocal: true, timeoutMs, connectionsPerOrigin: 50 });
    try {
      // Fifty answers that take 1.2 s hold every connection to the origin; the next send waits
      // for one, then gets its answer 1.2 s later: within its own 2 s, not within 2 s of the call.
      const busy = Array.from({ length: 50 }, (_, i) => transport.send(`${stalling.origin}/slow/${i}?ms=1200`, {}, '{}'));
      const queued = await transport.send(`${stalling.origin}/slow/queued?ms=1200`, {}, '{}');
      expect(queued).toMatchObject({ kind: 'response', statusCode: 200 });
      for (const result of await Promise.all(busy)) expect(result).toMatchObject({ kind: 'response', statusCode: 200 });
    } finally {
      await transport.close();
    }
  });

  it('ends an attempt whose answer drips a byte at a time, at the deadline', async () => {
    const transport = createWebhookTransport({ allowLocal: true, timeoutMs: 500 });
    try {
      // Each byte arrives well within any idle timeout; only a total deadline ends this.
      const result = await transport.send(`${stalling.origin}/drip`, {}, '{}');
      expect(result).toMatchObject({ kind: 'failure', failure: 'timeout' });
    } finally {
      await transport.close();
    }
  });
});
