// Real deliveries against the OpenAPI `webhooks` section: every event type is caused through the
// API (as an integrator's actions would), delivered by the worker to a local receiver, verified
// with the SDK's Standard Webhooks verifier, and its body must match that event type's schema in
// the document (which has no room for extra fields).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { verifyWebhook } from '@recruiting/sdk';
import { runWebhookWorkerOnce } from '../../src/modules/webhooks/delivery-worker.ts';
import { WEBHOOK_EVENT_TYPES } from '../../src/modules/webhooks/events.ts';
import { webhookEventSchemaName } from '../../src/modules/webhooks/schemas.ts';
import { createWebhookTransport, type WebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { documentValidator } from '../openapi/document-schema.ts';
import { startReceiver, type Receiver } from './receiver.ts';

let t: TestApp;
let receiver: Receiver;
let transport: WebhookTransport;
beforeAll(async () => {
  t = await buildTestApp();
  receiver = await startReceiver();
  transport = createWebhookTransport({ allowLocal: true });
});
afterAll(async () => {
  await transport.close();
  await receiver.close();
  await t.close();
});

it('every event type, delivered for real, matches its schema in the document', async () => {
  const tenant = await t.tenant();
  const api = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: tenant.headers, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.statusCode === 204 ? {} : res.json();
  };
  const subscription = await api('POST', '/public/v1/webhooks', {
    url: `${receiver.origin}/events`,
    events: WEBHOOK_EVENT_TYPES.filter((type) => type !== 'ping'),
  });

  const listing = await api('POST', '/public/v1/job-listings', { position: 'Backend engineer', positionType: 'FULL_TIME', workPlaceType: 'REMOTE' });
  await api('PATCH', `/public/v1/job-listings/${listing.id}`, { position: 'Senior backend engineer', address: { city: 'Berlin', country: 'DE' } });
  await api('POST', `/public/v1/job-listings/${listing.id}/publish`);
  const application = await api('POST', '/public/v1/applications', {
    jobListingId: listing.id,
    candidate: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0958' },
  });
  await api('PATCH', `/public/v1/applications/${application.id}/status`, { status: 'IN_REVIEW', reason: 'Strong profile' });
  // A file attached, then deleted (a tiny PDF: the type is decided from the bytes).
  const pdf = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
  const file = await api('POST', `/public/v1/candidates/${application.candidate.id}/files`, { kind: 'RESUME', fileName: 'cv.pdf', contentBase64: pdf });
  await api('DELETE', `/public/v1/candidates/${application.candidate.id}/files/${file.id}`);
  // A note written, edited and deleted.
  const note = await api('POST', `/public/v1/candidates/${application.candidate.id}/notes`, { body: 'Phone screen went well.', applicationId: application.id });
  await api('PATCH', `/public/v1/candidates/${application.candidate.id}/notes/${note.id}`, { body: 'Phone screen went well; starts in May.' });
  await api('DELETE', `/public/v1/candidates/${application.candidate.id}/notes/${note.id}`);
  const imported = await api('POST', '/public/v1/candidates/import', { candidates: [{ firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' }] });
  await api('DELETE', `/public/v1/candidates/${imported.results[0].candidateId}`);
  await api('POST', `/public/v1/job-listings/${listing.id}/close`);
  await api('POST', `/public/v1/job-listings/${listing.id}/archive`);
  const draft = await api('POST', '/public/v1/job-listings', { position: 'Intern', positionType: 'INTERNSHIP', workPlaceType: 'ON_SITE' });
  await api('DELETE', `/public/v1/job-listings/${draft.id}`);
  await api('POST', `/public/v1/webhooks/${subscription.id}/test`);

  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  const deps = { db: t.ctx.db, clock: t.clock, secrets: t.ctx.secrets, transport, log: silent, leaseMs: 60_000, concurrency: 10, random: () => 0.5 };
  for (let pass = 0; pass < 10; pass++) {
    const { dispatched, attempted } = await runWebhookWorkerOnce(deps);
    if (dispatched === 0 && attempted === 0) break;
  }

  const doc = (await t.app.inject({ url: '/openapi.json' })).json();
  const validatorAt = documentValidator(doc);
  const seen = new Set<string>();
  for (const request of receiver.requests) {
    const event = verifyWebhook(subscription.secret, request.body, request.headers);
    const errors = validatorAt(`/components/schemas/${webhookEventSchemaName(event.type)}`)(JSON.parse(request.body));
    expect(errors, `${event.type}: ${request.body.slice(0, 300)}`).toEqual([]);
    // The document's webhooks entry for the type names the same schema.
    expect(doc.webhooks[event.type].post.requestBody.content['application/json'].schema.$ref).toBe(
      `#/components/schemas/${webhookEventSchemaName(event.type)}`,
    );
    seen.add(event.type);
  }
  expect([...seen].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
});
