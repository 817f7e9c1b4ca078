// A webhook carries its resource's data, so `webhooks:manage` alone neither routes events it may not
// read (subscribing to, or re-pointing, candidate.* / application.* / job_listing.* needs the read
// scope of each) nor reads them back from the delivery log (payload and answers are null without
// it). Without this, a key refused /candidates read candidates through its own webhook.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWebhookWorkerOnce } from '../../src/modules/webhooks/delivery-worker.ts';
import { createWebhookTransport, type WebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { applicant, makeListing } from '../helpers/factories.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const silentLog = { debug() {}, info() {}, warn() {}, error() {} };
const EMAIL = 'secretive.person@example.com';

let t: TestApp;
let transport: WebhookTransport;
let receiver: Receiver;
let tenant: Tenant;
/** webhooks:manage and nothing else. */
let manageOnly: Record<string, string>;

beforeAll(async () => {
  t = await buildTestApp();
  transport = createWebhookTransport({ allowLocal: true });
  // Echoes what it got, as many receivers do: its answers hold the event's data too.
  receiver = await startReceiver((request) => ({ status: 200, body: request.body }));
  tenant = await t.tenant();
  manageOnly = { 'x-api-key': await t.keyFor(tenant.companyId, ['webhooks:manage']) };
});
afterAll(async () => {
  await transport.close();
  await receiver.close();
  await t.close();
});

const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

const work = () =>
  runWebhookWorkerOnce({ db: t.ctx.db, clock: t.clock, secrets: t.ctx.secrets, transport, log: silentLog, leaseMs: 60_000, concurrency: 10 });

describe('subscribing needs the read scope of each event', () => {
  it.each([
    ['candidate.created', 'candidates:read'],
    ['application.status_changed', 'applications:read'],
    ['job_listing.published', 'jobs:read'],
  ])('%s without %s: 403 naming the scope', async (event, scope) => {
    const res = await inject('POST', '/public/v1/webhooks', manageOnly, { url: `${receiver.origin}/x`, events: ['ping', event] });
    const body = expectErrorEnvelope(res, 403, 'FORBIDDEN', '/public/v1/webhooks');
    expect(body.message).toContain(scope);
    expect(body.details).toEqual([{ field: 'scope', message: `requires ${scope}` }]);
  });

  it('names every missing scope at once; with the scopes, the same subscription is created', async () => {
    const events = ['candidate.created', 'application.created'];
    const refused = await inject('POST', '/public/v1/webhooks', manageOnly, { url: `${receiver.origin}/x`, events });
    expect(expectErrorEnvelope(refused, 403, 'FORBIDDEN', '/public/v1/webhooks').details).toEqual([
      { field: 'scope', message: 'requires candidates:read' },
      { field: 'scope', message: 'requires applications:read' },
    ]);
    const candidatesOnly = { 'x-api-key': await t.keyFor(tenant.companyId, ['webhooks:manage', 'candidates:read']) };
    const partly = await inject('POST', '/public/v1/webhooks', candidatesOnly, { url: `${receiver.origin}/x`, events });
    expect(expectErrorEnvelope(partly, 403, 'FORBIDDEN', '/public/v1/webhooks').details).toEqual([
      { field: 'scope', message: 'requires applications:read' },
    ]);
    const both = { 'x-api-key': await t.keyFor(tenant.companyId, ['webhooks:manage', 'candidates:read', 'applications:read']) };
    expect((await inject('POST', '/public/v1/webhooks', both, { url: `${receiver.origin}/x`, events })).statusCode).toBe(201);
    // ping carries no resource's data: webhooks:manage is enough.
    expect((await inject('POST', '/public/v1/webhooks', manageOnly, { url: `${receiver.origin}/x`, events: ['ping'] })).statusCode).toBe(201);
  });

  it("re-pointing or widening another key's subscription needs the scopes too; switching it off does not", async () => {
    const created = await inject('POST', '/public/v1/webhooks', tenant.headers, { url: `${receiver.origin}/x`, events: ['candidate.created'] });
    const id = (created.json() as { id: string }).id;
    const url = `/public/v1/webhooks/${id}`;
    const moved = await inject('PATCH', url, manageOnly, { url: `${receiver.origin}/attacker` });
    expect(expectErrorEnvelope(moved, 403, 'FORBIDDEN', url).details).toEqual([{ field: 'scope', message: 'requires candidates:read' }]);
    const widened = await inject('PATCH', url, manageOnly, { events: ['ping'] });
    expect(widened.statusCode, widened.body).toBe(200);
    const ownPing = (await inject('POST', '/public/v1/webhooks', manageOnly, { url: `${receiver.origin}/x`, events: ['ping'] })).json() as { id: string };
    const grown = await inject('PATCH', `/public/v1/webhooks/${ownPing.id}`, manageOnly, { events: ['ping', 'application.created'] });
    expectErrorEnvelope(grown, 403, 'FORBIDDEN', `/public/v1/webhooks/${ownPing.id}`);
    expect((await inject('PATCH', url, manageOnly, { active: false })).statusCode).toBe(200);
    expect((await inject('GET', url, tenant.headers)).json()).toMatchObject({ url: `${receiver.origin}/x`, events: ['ping'], active: false });
  });
});

describe('the delivery log shows the data only to a key that may read it', () => {
  it("payload and the receiver's answers are null without the read scope, shown with it", async () => {
    const created = await inject('POST', '/public/v1/webhooks', tenant.headers, {
      url: `${receiver.origin}/log`,
      events: ['application.created', 'candidate.created'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;
    const listingId = await makeListing(t, tenant.companyId, 'ACTIVE');
    const applied = await inject('POST', '/public/v1/applications', tenant.headers, { jobListingId: listingId, candidate: applicant(EMAIL) });
    expect(applied.statusCode, applied.body).toBe(201);
    expect((await inject('POST', `/public/v1/webhooks/${id}/test`, tenant.headers)).statusCode).toBe(200);
    await work();

    // The baseline: the same key is refused the candidates and the feed.
    expect((await inject('GET', '/public/v1/candidates', manageOnly)).statusCode).toBe(403);
    expect((await inject('GET', '/public/v1/events', manageOnly)).statusCode).toBe(403);

    type Delivery = { id: string; eventType: string; payload: string | null; attempts: Array<{ responseBody: string | null; statusCode: number | null }> };
    const logOf = async (headers: Record<string, string>) => {
      const res = await inject('GET', `/public/v1/webhooks/${id}/deliveries`, headers);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: Delivery[] }).data;
    };
    const full = await logOf(tenant.headers);
    expect(full.map((delivery) => delivery.eventType).sort()).toEqual(['application.created', 'candidate.created', 'ping']);
    for (const delivery of full.filter((d) => d.eventType !== 'ping')) {
      expect(delivery.payload).toContain(EMAIL);
      expect(delivery.attempts[0].responseBody).toContain(EMAIL);
    }

    const limited = await logOf(manageOnly);
    expect(JSON.stringify(limited)).not.toContain(EMAIL);
    for (const delivery of limited) {
      if (delivery.eventType === 'ping') {
        expect(delivery.payload).toContain('"type":"ping"');
        continue;
      }
      expect(delivery.payload).toBeNull();
      expect(delivery.attempts).toEqual([expect.objectContaining({ statusCode: 200, responseBody: null })]);
    }

    // One scope opens its own events only.
    const candidatesOnly = { 'x-api-key': await t.keyFor(tenant.companyId, ['webhooks:manage', 'candidates:read']) };
    const partial = await logOf(candidatesOnly);
    expect(partial.find((d) => d.eventType === 'candidate.created')!.payload).toContain(EMAIL);
    expect(partial.find((d) => d.eventType === 'application.created')!.payload).toBeNull();

    // Redelivery answers the delivery the same way.
    const target = full.find((d) => d.eventType === 'candidate.created')!;
    const redelivered = await inject('POST', `/public/v1/webhooks/${id}/deliveries/${target.id}/redeliver`, manageOnly);
    expect(redelivered.statusCode, redelivered.body).toBe(202);
    expect(redelivered.body).not.toContain(EMAIL);
    expect((redelivered.json() as Delivery).payload).toBeNull();
  });
});
