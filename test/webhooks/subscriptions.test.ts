import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { startReceiver, type Receiver } from './receiver.ts';

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  t = await buildTestApp();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

function call(tenant: Tenant, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  return t.app.inject({ method, url, headers: tenant.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}

async function create(tenant: Tenant, body: Record<string, unknown> = {}) {
  const res = await call(tenant, 'POST', '/public/v1/webhooks', {
    url: `${receiver.origin}/hooks`,
    events: ['application.created'],
    ...body,
  });
  expect(res.statusCode).toBe(201);
  return res.json() as Record<string, unknown> & { id: string; secret: string };
}

const VIEW_KEYS = ['active', 'companyId', 'createdAt', 'disabledReason', 'events', 'id', 'updatedAt', 'url'];

describe('creating a subscription', () => {
  it('answers 201 with the subscription and its secret, shown this once', async () => {
    const tenant = await t.tenant();
    const res = await call(tenant, 'POST', '/public/v1/webhooks', {
      url: `${receiver.origin}/hooks`,
      events: ['application.created', 'application.status_changed', 'application.created'],
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([...VIEW_KEYS, 'secret'].sort());
    expect(body).toMatchObject({
      companyId: tenant.companyId,
      url: `${receiver.origin}/hooks`,
      events: ['application.created', 'application.status_changed'],
      active: true,
      disabledReason: null,
    });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(body.createdAt).toBe(body.updatedAt);

    const got = await call(tenant, 'GET', `/public/v1/webhooks/${body.id}`);
    expect(got.statusCode).toBe(200);
    expect(Object.keys(got.json()).sort()).toEqual(VIEW_KEYS);
    expect(JSON.stringify(got.json())).not.toContain(body.secret);
  });

  it('refuses a bad URL, an unknown event and unknown fields with 422 and details', async () => {
    const tenant = await t.tenant();
    const cases: Array<[unknown, string]> = [
      [{ url: 'not a url', events: ['ping'] }, 'url'],
      [{ url: 'ftp://example.com/x', events: ['ping'] }, 'url'],
      [{ url: 'http://user:pw@127.0.0.1/x', events: ['ping'] }, 'url'],
      [{ url: `${receiver.origin}/x`, events: ['application.created', 'application.exploded'] }, 'events[1]'],
      [{ url: `${receiver.origin}/x`, events: [] }, 'events'],
      [{ url: `${receiver.origin}/x` }, 'events'],
      [{ events: ['ping'] }, 'url'],
      [{ url: `${receiver.origin}/x`, events: ['ping'], secret: 'mine' }, 'secret'],
      [{ url: 42, events: ['ping'] }, 'url'],
    ];
    for (const [payload, field] of cases) {
      const res = await call(tenant, 'POST', '/public/v1/webhooks', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toMatchObject({ status: 422, error: 'VALIDATION_ERROR', path: '/public/v1/webhooks' });
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const unknownEvent = await call(tenant, 'POST', '/public/v1/webhooks', { url: `${receiver.origin}/x`, events: ['nope'] });
    expect(unknownEvent.json().details[0].message).toMatch(/application\.created/);
  });

  it('names the URL and the events in one 422 when both are wrong (create and update)', async () => {
    const tenant = await t.tenant();
    const created = await call(tenant, 'POST', '/public/v1/webhooks', { url: 'not a url', events: [] });
    expect(created.statusCode).toBe(422);
    expect(created.json().details.map((d: { field: string }) => d.field)).toEqual(['events', 'url']);
    const { id } = await create(tenant);
    const updated = await call(tenant, 'PATCH', `/public/v1/webhooks/${id}`, { url: 'not a url', events: ['application.exploded'] });
    expect(updated.statusCode).toBe(422);
    expect(updated.json().details.map((d: { field: string }) => d.field)).toEqual(['events[0]', 'url']);
  });

  it('answers 400 on malformed JSON', async () => {
    const tenant = await t.tenant();
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/v1/webhooks',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      payload: '{"url": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('BAD_REQUEST');
  });

  it('needs the webhooks:manage scope', async () => {
    const tenant = await t.tenant(['jobs:read', 'applications:read']);
    const res = await call(tenant, 'POST', '/public/v1/webhooks', { url: `${receiver.origin}/x`, events: ['ping'] });
    expect(res.statusCode).toBe(403);
    expect(res.json().details).toEqual([{ field: 'scope', message: 'requires webhooks:manage' }]);
    expect((await call(tenant, 'GET', '/public/v1/webhooks')).statusCode).toBe(403);
  });
});

describe('managing subscriptions', () => {
  it('lists the company’s subscriptions newest first in the paginated envelope, without secrets', async () => {
    const tenant = await t.tenant();
    const other = await t.tenant();
    await create(other);
    const created = [];
    for (let i = 0; i < 3; i++) {
      created.push(await create(tenant, { url: `${receiver.origin}/hooks/${i}` }));
      t.clock.advance(1000);
    }
    const res = await call(tenant, 'GET', '/public/v1/webhooks?size=2');
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.pagination).toEqual({ page: 0, size: 2, totalElements: 3, totalPages: 2, nextCursor: expect.any(String) });
    expect(page.data.map((s: { id: string }) => s.id)).toEqual([created[2].id, created[1].id]);
    for (const item of page.data) expect(Object.keys(item).sort()).toEqual(VIEW_KEYS);
    const second = (await call(tenant, 'GET', '/public/v1/webhooks?page=1&size=2')).json();
    expect(second.data.map((s: { id: string }) => s.id)).toEqual([created[0].id]);
    expect((await call(tenant, 'GET', '/public/v1/webhooks?page=5')).json().data).toEqual([]);
    expect((await call(tenant, 'GET', '/public/v1/webhooks?size=0')).statusCode).toBe(422);
  });

  it('updates url, events and active; validates them like create', async () => {
    const tenant = await t.tenant();
    const sub = await create(tenant);
    t.clock.advance(1000);
    const res = await call(tenant, 'PATCH', `/public/v1/webhooks/${sub.id}`, {
      url: `${receiver.origin}/other`,
      events: ['job_listing.published', 'job_listing.closed'],
      active: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: sub.id,
      url: `${receiver.origin}/other`,
      events: ['job_listing.published', 'job_listing.closed'],
      active: false,
    });
    expect(res.json().updatedAt > (sub.updatedAt as string)).toBe(true);
    expect(Object.keys(res.json()).sort()).toEqual(VIEW_KEYS);

    expect((await call(tenant, 'PATCH', `/public/v1/webhooks/${sub.id}`, { active: true })).json().active).toBe(true);
    for (const [payload, field] of [
      [{ url: 'nope' }, 'url'],
      [{ events: ['bogus'] }, 'events[0]'],
      [{ events: [] }, 'events'],
      [{ secret: 'x' }, 'secret'],
      [{ active: 'yes' }, 'active'],
    ] as const) {
      const bad = await call(tenant, 'PATCH', `/public/v1/webhooks/${sub.id}`, payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(422);
      expect(bad.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it('deletes with 204; the subscription is then gone', async () => {
    const tenant = await t.tenant();
    const sub = await create(tenant);
    const res = await call(tenant, 'DELETE', `/public/v1/webhooks/${sub.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await call(tenant, 'GET', `/public/v1/webhooks/${sub.id}`)).statusCode).toBe(404);
    expect((await call(tenant, 'DELETE', `/public/v1/webhooks/${sub.id}`)).statusCode).toBe(404);
  });

  it('rotates the secret: the new one is shown once and differs', async () => {
    const tenant = await t.tenant();
    const sub = await create(tenant);
    const res = await call(tenant, 'POST', `/public/v1/webhooks/${sub.id}/rotate-secret`);
    expect(res.statusCode).toBe(200);
    const rotated = res.json();
    expect(rotated.id).toBe(sub.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(sub.secret);
    const got = await call(tenant, 'GET', `/public/v1/webhooks/${sub.id}`);
    expect(got.body).not.toContain(rotated.secret);
    expect(got.body).not.toContain(sub.secret);
  });

  it('answers 404 for another company’s subscription on every operation, like a missing id', async () => {
    const owner = await t.tenant();
    const stranger = await t.tenant();
    const sub = await create(owner);
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const id of [sub.id, missing]) {
      const requests: Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown?]> = [
        ['GET', `/public/v1/webhooks/${id}`],
        ['PATCH', `/public/v1/webhooks/${id}`, { active: false }],
        ['DELETE', `/public/v1/webhooks/${id}`],
        ['POST', `/public/v1/webhooks/${id}/rotate-secret`],
        ['POST', `/public/v1/webhooks/${id}/test`],
        ['GET', `/public/v1/webhooks/${id}/deliveries`],
        ['POST', `/public/v1/webhooks/${id}/deliveries/${missing}/redeliver`],
      ];
      for (const [method, url, payload] of requests) {
        const res = await call(stranger, method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json().error).toBe('NOT_FOUND');
      }
    }
    expect((await call(stranger, 'GET', '/public/v1/webhooks')).json().data).toEqual([]);
    expect(receiver.requests.filter((r) => r.body.includes(sub.id))).toEqual([]);
    expect((await call(owner, 'GET', `/public/v1/webhooks/${sub.id}`)).json().active).toBe(true);
  });

  it('answers 422 for an id that is not a UUID', async () => {
    const tenant = await t.tenant();
    const res = await call(tenant, 'GET', '/public/v1/webhooks/abc');
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].field).toBe('id');
  });
});

describe('test ping', () => {
  it('sends a signed ping now and answers the receiver’s status and body', async () => {
    const tenant = await t.tenant();
    const sub = await create(tenant, { url: `${receiver.origin}/ping-me` });
    receiver.handler = () => ({ status: 418, body: "I'm a teapot" });
    const before = receiver.requests.length;
    const res = await call(tenant, 'POST', `/public/v1/webhooks/${sub.id}/test`);
    receiver.handler = () => ({ status: 200, body: 'ok' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 418, body: "I'm a teapot" });

    expect(receiver.requests).toHaveLength(before + 1);
    const ping = receiver.requests[before];
    expect(ping.method).toBe('POST');
    expect(ping.path).toBe('/ping-me');
    expect(ping.headers['content-type']).toBe('application/json');
    const payload = new Webhook(sub.secret).verify(ping.body, ping.headers as Record<string, string>) as Record<string, unknown>;
    expect(payload).toMatchObject({ type: 'ping', companyId: tenant.companyId, data: { subscriptionId: sub.id } });
    expect(payload.id).toBe(ping.headers['webhook-id']);

    // The ping is in the delivery log, with its one attempt.
    const log = (await call(tenant, 'GET', `/public/v1/webhooks/${sub.id}/deliveries`)).json();
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ eventType: 'ping', status: 'FAILED', attemptCount: 1, nextAttemptAt: null });
    expect(log.data[0].attempts[0]).toMatchObject({ statusCode: 418, responseBody: "I'm a teapot", error: null });
  });

  it('cuts the answered body at 20 KB', async () => {
    const tenant = await t.tenant();
    const sub = await create(tenant);
    receiver.handler = () => ({ status: 200, body: 'x'.repeat(100_000) });
    const res = await call(tenant, 'POST', `/public/v1/webhooks/${sub.id}/test`);
    receiver.handler = () => ({ status: 200, body: 'ok' });
    expect(res.json().status).toBe(200);
    expect(res.json().body).toBe('x'.repeat(20 * 1024));
  });

  it('answers 502 WEBHOOK_UNREACHABLE when no HTTP answer came, naming only the kind of failure', async () => {
    const tenant = await t.tenant();
    const closed = await startReceiver();
    await closed.close(); // the port now refuses connections
    const sub = await create(tenant, { url: `${closed.origin}/gone` });
    const res = await call(tenant, 'POST', `/public/v1/webhooks/${sub.id}/test`);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ status: 502, error: 'WEBHOOK_UNREACHABLE' });
    expect(res.json().message).toMatch(/refused/);
    expect(res.json().message).not.toContain('127.0.0.1');
    expect(res.json().message).not.toContain(String(closed.port));
    const log = (await call(tenant, 'GET', `/public/v1/webhooks/${sub.id}/deliveries`)).json();
    expect(log.data[0].attempts[0]).toMatchObject({ statusCode: null, error: 'CONNECTION_REFUSED', responseBody: null });
  });
});

describe('OpenAPI', () => {
  it('documents every webhook operation and the named schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/public/v1/webhooks',
        '/public/v1/webhooks/{id}',
        '/public/v1/webhooks/{id}/rotate-secret',
        '/public/v1/webhooks/{id}/test',
        '/public/v1/webhooks/{id}/deliveries',
        '/public/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      ]),
    );
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['WebhookSubscription', 'WebhookSubscriptionWithSecret', 'WebhookDelivery', 'WebhookTestResult']),
    );
    expect(doc.paths['/public/v1/webhooks/{id}/test'].post.responses['502']).toBeDefined();
  });
});
