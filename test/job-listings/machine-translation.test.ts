// AI translations through a configured LibreTranslate-compatible service (a local fake).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createLibreTranslateTranslator } from '../../src/adapters/translation/libretranslate.ts';
import { TranslationFailedError } from '../../src/adapters/translation/translator.ts';
import { translatorFromConfig } from '../../src/deps.ts';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { translateDueJobListings } from '../../src/modules/job-listings/service.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { startFakeLibreTranslate, type FakeLibreTranslate } from './fake-libretranslate.ts';
import { api, FULL } from './helpers.ts';

/** The languages every listing is machine-translated into when written. */
const LANGUAGES = ['es', 'nl', 'sv', 'fi', 'xx'];
let fake: FakeLibreTranslate;
let t: TestApp;
let j: ReturnType<typeof api>;
beforeAll(async () => {
  fake = await startFakeLibreTranslate();
  t = await buildTestApp({ TRANSLATOR_URL: fake.url, TRANSLATOR_API_KEY: 'lt-secret', TRANSLATOR_LANGUAGES: LANGUAGES.join(',') });
  j = api(t);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.failWith = undefined;
  fake.unsupportedTargets.clear();
});

const ai = (value: string, original: string) => ({ value, original, sourceLanguage: 'en', translated: true, translationType: 'AI' });

/** Every stored translation row, as a comparable snapshot. */
async function translationRows(): Promise<string[]> {
  const rows = await queryRows<{ row: string }>(t.ctx.db, sql`select concat_ws('|', id, job_listing_id, language, translation_type, field, text) as row from job_listing_translations order by id`);
  return rows.map((r) => r.row);
}

describe('machine translation (translator configured)', () => {
  let tenant: Tenant;
  let listing: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  let url: string;
  const get = (acceptLanguage: string) => j.call('GET', url, { ...tenant.headers, 'accept-language': acceptLanguage });

  beforeAll(async () => {
    tenant = await t.tenant();
    listing = await j.create(tenant.headers, FULL);
    url = `/public/v1/job-listings/${listing.id}`;
  });

  it('translates a listing when it is written, one call per configured language, and serves what it stored', async () => {
    const other = await t.tenant();
    await j.create(other.headers, FULL);
    expect(fake.requests.map((request) => request.target).sort()).toEqual([...LANGUAGES].sort());
    const es = fake.requests.find((request) => request.target === 'es')!;
    expect(es).toMatchObject({ source: 'en', format: 'text', api_key: 'lt-secret' });
    expect(es.q).toContain(FULL.position);
    fake.requests.length = 0;

    const res = await get('es');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-language']).toBe('es');
    const body = res.json();
    expect(body.position).toEqual(ai(`[es] ${FULL.position}`, FULL.position));
    expect(body.jobDescription).toEqual(ai(`[es] ${FULL.jobDescription}`, FULL.jobDescription));
    expect(body.benefits[1]).toEqual(ai('[es] Remote days', 'Remote days'));
    expect(body.skills[0].value).toEqual(ai('[es] TypeScript', 'TypeScript'));
    expect(body.hiringProcessSteps[0].description).toEqual(ai('[es] Thirty minutes with a recruiter.', 'Thirty minutes with a recruiter.'));
    expect((await get('es')).json()).toEqual(body);
    expect(fake.requests).toHaveLength(0);
  });

  it('reads never write: GET of a listing, a page and an application leave the translations unchanged and never call the translator', async () => {
    const applied = await j.call('POST', `${url}/publish`, tenant.headers);
    expect(applied.statusCode).toBe(200);
    const application = await j.call('POST', '/public/v1/applications', tenant.headers, {
      jobListingId: listing.id,
      candidate: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    });
    expect(application.statusCode).toBe(201);
    const before = await translationRows();
    fake.requests.length = 0;
    // pt is not a configured language and has no stored translation: the original is served.
    for (const path of [url, '/public/v1/job-listings', `/public/v1/applications/${application.json().id}`]) {
      const res = await j.call('GET', path, { ...tenant.headers, 'accept-language': 'pt-BR, pt;q=0.9' });
      expect(res.statusCode).toBe(200);
    }
    const read = (await get('pt')).json();
    expect(read.position).toEqual({ value: FULL.position, original: FULL.position, sourceLanguage: 'en', translated: false, translationType: null });
    expect(fake.requests).toHaveLength(0);
    expect(await translationRows()).toEqual(before);
  });

  it('a HUMAN translation wins over the AI one; the AI one fills what the human left out, also in a language not configured', async () => {
    const put = await j.call('PUT', `${url}/translations/it`, tenant.headers, { position: 'Ingegnere backend senior' });
    expect(put.json().position).toMatchObject({ value: 'Ingegnere backend senior', translationType: 'HUMAN' });
    expect(put.json().jobDescription).toMatchObject({ value: `[it] ${FULL.jobDescription}`, translationType: 'AI' });
    const read = (await get('it')).json();
    expect(read.position.translationType).toBe('HUMAN');
    expect(read.jobDescription.translationType).toBe('AI');

    fake.requests.length = 0;
    const pt = await j.call('PUT', `${url}/translations/pt`, tenant.headers, { position: 'Engenheiro backend sénior' });
    expect(pt.json().position).toMatchObject({ value: 'Engenheiro backend sénior', translationType: 'HUMAN' });
    expect(pt.json().jobDescription).toMatchObject({ value: `[pt] ${FULL.jobDescription}`, translationType: 'AI' });
    expect(fake.requests.map((request) => request.target)).toEqual(['pt']);
    expect(fake.requests[0].q).not.toContain(FULL.position);
  });

  it('translates only what is missing after an edit', async () => {
    fake.requests.length = 0;
    await j.call('PATCH', url, tenant.headers, { jobDescription: 'Own our APIs end to end.' });
    const res = await get('nl');
    expect(res.json().jobDescription).toEqual(ai('[nl] Own our APIs end to end.', 'Own our APIs end to end.'));
    // One call per language the listing is translated into, each with the edited text alone.
    expect(fake.requests.length).toBeGreaterThanOrEqual(LANGUAGES.length);
    for (const request of fake.requests) expect(request.q).toEqual(['Own our APIs end to end.']);
  });

  it('falls back to the next language, then to the original, when the translator cannot help; the sweep retries later', async () => {
    fake.unsupportedTargets.add('xx');
    const other = await t.tenant();
    const created = await j.create(other.headers, FULL);
    const next = await j.call('GET', `/public/v1/job-listings/${created.id}`, { ...other.headers, 'accept-language': 'xx, es;q=0.5' });
    expect(next.headers['content-language']).toBe('es');

    fake.failWith = 500;
    const down = await j.create(other.headers, { ...FULL, position: 'Night cook' });
    const read = await j.call('GET', `/public/v1/job-listings/${down.id}`, { ...other.headers, 'accept-language': 'sv' });
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-language']).toBe('en');
    expect(read.json().position).toEqual({ value: 'Night cook', original: 'Night cook', sourceLanguage: 'en', translated: false, translationType: null });
    // Stored translations still serve while the translator is down.
    expect((await get('es')).json().position.translationType).toBe('AI');

    // The translator is back: the sweep translates what is due once the retry time has come.
    fake.failWith = undefined;
    expect(await translateDueJobListings(t.ctx)).toBe(0); // not due yet
    t.clock.advance(24 * 60 * 60_000); // past any retry delay
    fake.unsupportedTargets.clear();
    expect(await translateDueJobListings(t.ctx)).toBeGreaterThanOrEqual(2);
    const later = await j.call('GET', `/public/v1/job-listings/${down.id}`, { ...other.headers, 'accept-language': 'sv' });
    expect(later.json().position).toEqual(ai('[sv] Night cook', 'Night cook'));
    expect(await translateDueJobListings(t.ctx)).toBe(0); // nothing left due
  });

  it('serves list positions from what was stored when each listing was written', async () => {
    const other = await t.tenant();
    for (const position of ['Cook', 'Driver', 'Cook']) await j.create(other.headers, { ...FULL, position });
    fake.requests.length = 0;
    const res = await j.call('GET', '/public/v1/job-listings', { ...other.headers, 'accept-language': 'fi' });
    expect(res.headers['content-language']).toBe('fi');
    expect(res.json().data.map((item: { position: unknown }) => item.position)).toEqual([
      { value: '[fi] Cook', translated: true },
      { value: '[fi] Driver', translated: true },
      { value: '[fi] Cook', translated: true },
    ]);
    const mixed = await j.call('GET', '/public/v1/job-listings', { ...other.headers, 'accept-language': 'da' });
    expect(mixed.statusCode).toBe(200);
    expect(mixed.headers['content-language']).toBe('en');
    expect(fake.requests).toHaveLength(0);
  });
});

describe('translator configuration', () => {
  it('is off by default: no translator, and no AI translations', async () => {
    const config = loadConfig({});
    expect(config.translatorUrl).toBeUndefined();
    expect(config.translatorApiKey).toBeUndefined();
    expect(translatorFromConfig(config)).toBeUndefined();
  });

  it('refuses a bad URL and a key without a URL', () => {
    expect(() => loadConfig({ TRANSLATOR_URL: 'not a url' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRANSLATOR_URL: 'ftp://example.com' })).toThrow(/TRANSLATOR_URL/);
    expect(() => loadConfig({ TRANSLATOR_API_KEY: 'k' })).toThrow(/TRANSLATOR_URL/);
    expect(() => loadConfig({ TRANSLATOR_LANGUAGES: 'de' })).toThrow(/TRANSLATOR_URL/);
    expect(() => loadConfig({ TRANSLATOR_URL: 'https://t.example.com', TRANSLATOR_LANGUAGES: 'de,en_US' })).toThrow(/en_US/);
    expect(loadConfig({ TRANSLATOR_URL: 'https://t.example.com', TRANSLATOR_LANGUAGES: ' DE-at, fr,de-AT ' }).translatorLanguages).toEqual(['de-AT', 'fr']);
    expect(loadConfig({ TRANSLATOR_URL: 'https://translate.example.com' }).translatorUrl).toBe('https://translate.example.com');
  });
});

describe('LibreTranslate adapter', () => {
  it('sends primary language subtags and reads one or many results', async () => {
    const translator = createLibreTranslateTranslator({ url: `${fake.url}/` });
    expect(await translator.translate(['Hello', 'World'], 'en-GB', 'pt-BR')).toEqual(['[pt] Hello', '[pt] World']);
    expect(fake.requests[0]).toEqual({ q: ['Hello', 'World'], source: 'en', target: 'pt', format: 'text' });
    expect(await translator.translate([], 'en', 'de')).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it('throws TranslationFailedError when the service fails or cannot be reached', async () => {
    fake.failWith = 429;
    await expect(createLibreTranslateTranslator({ url: fake.url }).translate(['a'], 'en', 'de')).rejects.toBeInstanceOf(
      TranslationFailedError,
    );
    // A port nothing listens on: connection refused.
    const unreachable = createLibreTranslateTranslator({ url: 'http://127.0.0.1:9', timeoutMs: 2000 });
    await expect(unreachable.translate(['a'], 'en', 'de')).rejects.toBeInstanceOf(TranslationFailedError);
  });
});
