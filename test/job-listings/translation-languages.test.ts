// GET /public/v1/job-listings/{id}/translations: which languages a listing has stored translations
// in, with and without a machine translator configured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { startFakeLibreTranslate, type FakeLibreTranslate } from './fake-libretranslate.ts';
import { api, FULL, MINIMAL, MISSING_ID } from './helpers.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('translation languages (no translator)', () => {
  let t: TestApp;
  let j: ReturnType<typeof api>;
  beforeAll(async () => {
    t = await buildTestApp();
    j = api(t);
  });
  afterAll(async () => t?.close());

  it('answers an empty list for a fresh listing, then each language given by PUT as HUMAN, sorted', async () => {
    const tenant = await t.tenant();
    const listing = await j.create(tenant.headers, FULL);
    const url = `/public/v1/job-listings/${listing.id}/translations`;
    const empty = await j.call('GET', url, tenant.headers);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ data: [] });

    const before = Date.now();
    expect((await j.call('PUT', `${url}/de`, tenant.headers, { position: 'Entwickler' })).statusCode).toBe(200);
    expect((await j.call('PUT', `${url}/pt-BR`, tenant.headers, { jobDescription: 'Construa nossas APIs.' })).statusCode).toBe(200);
    expect((await j.call('PUT', `${url}/fr`, tenant.headers, { position: 'Ingénieur' })).statusCode).toBe(200);
    const res = await j.call('GET', url, tenant.headers);
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as { data: { language: string; translationType: string; updatedAt: string }[] };
    expect(data.map(({ language, translationType }) => [language, translationType])).toEqual([
      ['de', 'HUMAN'],
      ['fr', 'HUMAN'],
      ['pt-BR', 'HUMAN'],
    ]);
    for (const entry of data) {
      expect(entry.updatedAt).toMatch(ISO);
      expect(Date.parse(entry.updatedAt)).toBeGreaterThanOrEqual(before - 1000);
    }
  });

  it('lists only translations of the current texts: editing an original drops a language whose only translation was of it', async () => {
    const tenant = await t.tenant();
    const listing = await j.create(tenant.headers, FULL);
    const url = `/public/v1/job-listings/${listing.id}`;
    await j.call('PUT', `${url}/translations/de`, tenant.headers, { position: 'Entwickler' });
    await j.call('PUT', `${url}/translations/fr`, tenant.headers, { jobDescription: 'Construisez nos APIs.' });
    expect((await j.call('PATCH', url, tenant.headers, { position: 'Platform engineer' })).statusCode).toBe(200);
    expect((await j.call('GET', `${url}/translations`, tenant.headers)).json().data.map((e: { language: string }) => e.language)).toEqual(['fr']);
  });

  it("answers 404 for another company's listing, as for a missing one", async () => {
    const owner = await t.tenant();
    const intruder = await t.tenant();
    const listing = await j.create(owner.headers, MINIMAL);
    await j.call('PUT', `/public/v1/job-listings/${listing.id}/translations/de`, owner.headers, { position: 'Entwickler' });
    for (const id of [listing.id, MISSING_ID]) {
      const path = `/public/v1/job-listings/${id}/translations`;
      expectErrorEnvelope(await j.call('GET', path, intruder.headers), 404, 'NOT_FOUND', path);
    }
  });

  it('needs jobs:read (403 naming the scope) and a uuid id (422)', async () => {
    const owner = await t.tenant();
    const listing = await j.create(owner.headers, MINIMAL);
    const path = `/public/v1/job-listings/${listing.id}/translations`;
    const readOnly = { 'x-api-key': await t.keyFor(owner.companyId, ['jobs:read']) };
    const writeOnly = { 'x-api-key': await t.keyFor(owner.companyId, ['jobs:write']) };
    expect((await j.call('GET', path, readOnly)).statusCode).toBe(200);
    const refused = await j.call('GET', path, writeOnly);
    expectErrorEnvelope(refused, 403, 'FORBIDDEN', path);
    expect(refused.json().details).toEqual([{ field: 'scope', message: 'requires jobs:read' }]);
    expectErrorEnvelope(await j.call('GET', path, {}), 401, 'UNAUTHORIZED', path);

    const bad = '/public/v1/job-listings/not-a-uuid/translations';
    expectErrorEnvelope(await j.call('GET', bad, owner.headers), 422, 'VALIDATION_ERROR', bad);
  });
});

describe('translation languages (translator configured)', () => {
  let fake: FakeLibreTranslate;
  let t: TestApp;
  let j: ReturnType<typeof api>;
  beforeAll(async () => {
    fake = await startFakeLibreTranslate();
    t = await buildTestApp({ TRANSLATOR_URL: fake.url, TRANSLATOR_API_KEY: 'lt-secret', TRANSLATOR_LANGUAGES: 'nl,es' });
    j = api(t);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('shows machine translations as AI, and a language with a human text too as HUMAN', async () => {
    const tenant = await t.tenant();
    const listing = await j.create(tenant.headers, FULL);
    const url = `/public/v1/job-listings/${listing.id}/translations`;
    const types = async () =>
      (await j.call('GET', url, tenant.headers)).json().data.map((e: { language: string; translationType: string }) => [e.language, e.translationType]);
    expect(await types()).toEqual([
      ['es', 'AI'],
      ['nl', 'AI'],
    ]);
    expect((await j.call('PUT', `${url}/es`, tenant.headers, { position: 'Ingeniero' })).statusCode).toBe(200);
    expect(await types()).toEqual([
      ['es', 'HUMAN'],
      ['nl', 'AI'],
    ]);
  });
});
