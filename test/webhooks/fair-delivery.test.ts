// One company's slow endpoints must not hold up another company's deliveries: claims are capped
// per subscription and taken round-robin across companies, and every attempt ends at a deadline
// the receiver cannot stretch (headers and body together).
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

/** An endpoint that accepts every request and never answers (or, for /drip, drips a body forever). */
interface Stalling {
  origin: string;
  requests: string[];
  close(): Promise<void>;
}

async function startStallingServer(): Promise<Stalling> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const drips = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res: ServerResponse) => {
    requests.push(req.url ?? '');
    req.resume();
    if (req.url?.startsWith('/drip')) {
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

describe('per-attempt deadline', () => {
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
