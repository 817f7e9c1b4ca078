// The webhook event catalogue is declared once (each module's events.ts, gathered by
// src/modules/webhooks/events.ts); the subscription schema, the OpenAPI `webhooks` section and the
// table in docs/webhooks.md all follow it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, webhookCatalogueMarkdown } from '../../src/modules/webhooks/events.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('webhook event catalogue', () => {
  it('documents every event in the OpenAPI webhooks section, in catalogue order, with its payload', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    expect(Object.keys(doc.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES]);
    // One component schema per event type, named after it.
    const bodyOf = (type: string) => doc.webhooks[type].post.requestBody.content['application/json'].schema;
    expect(bodyOf('application.created')).toEqual({ $ref: '#/components/schemas/ApplicationCreatedEvent' });
    const created = doc.components.schemas.ApplicationCreatedEvent;
    expect(created.properties.type).toEqual({ type: 'string', const: 'application.created' });
    expect(created.properties.data.properties.application).toEqual({ $ref: '#/components/schemas/ApplicationSummary' });
    expect(doc.components.schemas.ApplicationSummary).toBeDefined();
    expect(bodyOf('job_listing.closed')).toEqual({ $ref: '#/components/schemas/JobListingClosedEvent' });
    expect(doc.components.schemas.JobListingClosedEvent.properties.data).toEqual({ $ref: '#/components/schemas/JobListing' });
    for (const type of WEBHOOK_EVENT_TYPES) expect(doc.webhooks[type].post.operationId).toMatch(/^on[A-Z]\w+Event$/);
  });

  it('is the table in docs/webhooks.md, word for word', () => {
    const docs = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
    expect(docs, 'update the "Event catalogue" table of docs/webhooks.md to webhookCatalogueMarkdown()').toContain(
      webhookCatalogueMarkdown(),
    );
  });

  it('lets a subscription list exactly the catalogued names', async () => {
    const tenant = await t.tenant();
    const create = (events: string[]) =>
      t.app.inject({ method: 'POST', url: '/public/v1/webhooks', headers: tenant.headers, payload: { url: 'http://127.0.0.1:9/h', events } });
    expect((await create([...WEBHOOK_EVENT_TYPES])).statusCode).toBe(201);
    expect((await create(['application.deleted'])).statusCode).toBe(422);
  });
});
