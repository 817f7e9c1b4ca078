// The address guard with WEBHOOK_ALLOW_LOCAL=false (production settings): loopback, private and
// other non-public addresses are refused at create (422) and again when connecting, so neither an
// address stored earlier nor a DNS answer that changed (rebinding) gets a request out.
import type { LookupAddress } from 'node:dns';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { recordTestEvent } from '../helpers/events.ts';
import { runWebhookWorkerOnce, type WorkerDeps } from '../../src/modules/webhooks/delivery-worker.ts';
import { createSubscription } from '../../src/modules/webhooks/service.ts';
import { ALL_SCOPES } from '../../src/modules/api-keys/scopes.ts';
import { createWebhookTransport, type Resolver, type WebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const silentLog = { debug() {}, info() {}, warn() {}, error() {} };

let t: TestApp;
let strict: WebhookTransport;
let permissive: WebhookTransport;
let receiver: Receiver;

beforeAll(async () => {
  t = await buildTestApp({ WEBHOOK_ALLOW_LOCAL: 'false' });
  expect(t.config.webhookAllowLocal).toBe(false);
  strict = createWebhookTransport({ allowLocal: false });
  permissive = createWebhookTransport({ allowLocal: true });
  receiver = await startReceiver();
});
afterEach(async () => {
  await t.ctx.db.execute(sql`UPDATE webhook_subscriptions SET active = false`);
});
afterAll(async () => {
  await strict.close();
  await permissive.close();
  await receiver.close();
  await t.close();
});

function deps(transport: WebhookTransport): WorkerDeps {
  return { db: t.ctx.db, clock: t.clock, secrets: t.ctx.secrets, transport, log: silentLog, leaseMs: 60_000, concurrency: 10, random: () => 0.5 };
}

async function emit(companyId: string, type = 'application.created') {
  return t.ctx.db.transaction((tx) => recordTestEvent(tx, { companyId, type, data: {}, occurredAt: t.clock.now() }));
}

async function create(tenant: Tenant, url: string) {
  return t.app.inject({
    method: 'POST',
    url: '/public/v1/webhooks',
    headers: tenant.headers,
    payload: { url, events: ['application.created'] },
  });
}

async function attemptsOf(tenant: Tenant, subscriptionId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/public/v1/webhooks/${subscriptionId}/deliveries`, headers: tenant.headers });
  return (res.json().data as Array<{ attempts: Array<Record<string, unknown>> }>).flatMap((d) => d.attempts);
}

describe('at create', () => {
  it('requires https', async () => {
    const tenant = await t.tenant();
    const res = await create(tenant, 'http://example.com/hooks');
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'url', message: 'must use https' }]);
  });

  it.each([
    'https://127.0.0.1/hooks',
    'https://127.1.2.3:8443/hooks',
    'https://localhost/hooks', // resolved by DNS (hosts file) to loopback
    'https://[::1]/hooks',
    'https://[::ffff:127.0.0.1]/hooks',
    'https://10.0.0.5/hooks',
    'https://192.168.1.10/hooks',
    'https://169.254.169.254/latest/meta-data',
    'https://0.0.0.0/hooks',
    'https://[fd00::1]/hooks',
    'https://[fe80::1]/hooks',
    'https://224.0.0.1/hooks',
  ])('refuses %s with 422', async (url) => {
    const tenant = await t.tenant();
    const res = await create(tenant, url);
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0]).toMatchObject({ field: 'url', message: expect.stringMatching(/public internet address/) });
  });

  it('refuses a host name that does not resolve', async () => {
    const tenant = await t.tenant();
    const res = await create(tenant, 'https://no-such-host.invalid/hooks');
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0]).toEqual({ field: 'url', message: 'host name could not be resolved' });
  });

  it('refuses a host with one private address among public ones', async () => {
    const resolve: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ];
    const transport = createWebhookTransport({ allowLocal: false, resolve });
    const single = createWebhookTransport({ allowLocal: false, resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
    try {
      expect(await transport.checkUrl('https://mixed.example/hooks')).toMatch(/public internet address/);
      expect(await single.checkUrl('https://ok.example/x')).toBeNull();
    } finally {
      await transport.close();
      await single.close();
    }
  });
});

describe('at connect time', () => {
  it('refuses a loopback address stored earlier: nothing reaches it, the attempt says BLOCKED_ADDRESS', async () => {
    const tenant = await t.tenant();
    // Created while local addresses were allowed (say, before the setting changed).
    const sub = await createSubscription(t.ctx, permissive, { companyId: tenant.companyId, scopes: ALL_SCOPES }, {
      url: `${receiver.origin}/literal`,
      events: ['application.created'],
    });
    await emit(tenant.companyId);
    await runWebhookWorkerOnce(deps(strict));
    expect(receiver.connections).toBe(0);
    expect(await attemptsOf(tenant, sub.id)).toEqual([
      expect.objectContaining({ statusCode: null, error: 'BLOCKED_ADDRESS', responseBody: null }),
    ]);

    // The test ping goes through the same guard: 502, naming only the kind of failure.
    const ping = await t.app.inject({ method: 'POST', url: `/public/v1/webhooks/${sub.id}/test`, headers: tenant.headers });
    expect(ping.statusCode).toBe(502);
    expect(ping.json()).toMatchObject({ error: 'WEBHOOK_UNREACHABLE', message: expect.stringMatching(/not allowed/) });
    expect(ping.json().message).not.toMatch(/127\.0\.0\.1|loopback/);
    expect(receiver.connections).toBe(0);
  });

  it('checks the address a host name resolves to inside the connection (https://localhost)', async () => {
    const tenant = await t.tenant();
    const sub = await createSubscription(t.ctx, permissive, { companyId: tenant.companyId, scopes: ALL_SCOPES }, {
      url: `https://localhost:${receiver.port}/named`,
      events: ['application.created'],
    });
    await emit(tenant.companyId);
    await runWebhookWorkerOnce(deps(strict));
    expect(receiver.connections).toBe(0);
    expect((await attemptsOf(tenant, sub.id))[0]).toMatchObject({ error: 'BLOCKED_ADDRESS' });
  });

  it('refuses DNS rebinding: public at create, loopback when sending', async () => {
    const tenant = await t.tenant();
    let lookups = 0;
    const rebinding: Resolver = async (): Promise<LookupAddress[]> =>
      lookups++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    const transport = createWebhookTransport({ allowLocal: false, resolve: rebinding });
    try {
      const sub = await createSubscription(t.ctx, transport, { companyId: tenant.companyId, scopes: ALL_SCOPES }, {
        url: `https://rebind.example:${receiver.port}/rebind`,
        events: ['application.created'],
      });
      await emit(tenant.companyId);
      await runWebhookWorkerOnce(deps(transport));
      expect(lookups).toBe(2);
      expect(receiver.connections).toBe(0);
      expect((await attemptsOf(tenant, sub.id))[0]).toMatchObject({ error: 'BLOCKED_ADDRESS' });
    } finally {
      await transport.close();
    }
  });

  it('connects to exactly the address the guard checked (no second lookup)', async () => {
    const tenant = await t.tenant();
    let lookups = 0;
    const resolve: Resolver = async () => {
      lookups++;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const transport = createWebhookTransport({ allowLocal: true, resolve });
    try {
      const sub = await createSubscription(t.ctx, transport, { companyId: tenant.companyId, scopes: ALL_SCOPES }, {
        url: `http://receiver.test:${receiver.port}/resolved`,
        events: ['application.created'],
      });
      expect(lookups).toBe(1); // the create-time check
      await emit(tenant.companyId);
      await runWebhookWorkerOnce(deps(transport));
      expect(lookups).toBe(2); // one lookup for the connection, the checked one
      expect(receiver.requests).toHaveLength(1);
      expect(receiver.requests[0].headers.host).toBe(`receiver.test:${receiver.port}`);
      expect((await attemptsOf(tenant, sub.id))[0]).toMatchObject({ statusCode: 200 });
    } finally {
      receiver.requests.length = 0;
      receiver.connections = 0;
      await transport.close();
    }
  });
});
