// AI translations through a configured LibreTranslate-compatible service (a local fake).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createLibreTranslateTranslator } from '../../src/adapters/translation/libretranslate.ts';
import { TranslationFailedError } from '../../src/adapters/translation/translator.ts';
import { translatorFromConfig } from '../../src/deps.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { startFakeLibreTranslate, type FakeLibreTranslate } from './fake-libretranslate.ts';
import { api, FULL } from './helpers.ts';

let fake: FakeLibreTranslate;
let t: TestApp;
let j: ReturnType<typeof api>;
beforeAll(async () => {
  fake = await startFakeLibreTranslate();
  t = await buildTestApp({ TRANSLATOR_URL: fake.url, TRANSLATOR_API_KEY: 'lt-secret' });
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

  it('translates a listing on the first request for a language, in one call, and keeps the result', async () => {
    const res = await get('es');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-language']).toBe('es');
    const body = res.json();
    expect(body.position).toEqual(ai(`[es] ${FULL.position}`, FULL.position));
    expect(body.jobDescription).toEqual(ai(`[es] ${FULL.jobDescription}`, FULL.jobDescription));
    expect(body.benefits[1]).toEqual(ai('[es] Remote days', 'Remote days'));
    expect(body.skills[0].value).toEqual(ai('[es] TypeScript', 'TypeScript'));
    expect(body.hiringProcessSteps[0].description).toEqual(ai('[es] Thirty minutes with a recruiter.', 'Thirty minutes with a recruiter.'));
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ source: 'en', target: 'es', format: 'text', api_key: 'lt-secret' });
    expect(fake.requests[0].q).toContain(FULL.position);

    expect((await get('es')).json()).toEqual(body);
    expect(fake.requests).toHaveLength(1); // kept: not translated again
  });

  it('a HUMAN translation wins over the AI one; the AI one fills what the human left out', async () => {
    await get('it'); // AI translation of everything into Italian
    const put = await j.call('PUT', `${url}/translations/it`, tenant.headers, { position: 'Ingegnere backend senior' });
    expect(put.json().position).toMatchObject({ value: 'Ingegnere backend senior', translationType: 'HUMAN' });
    expect(put.json().jobDescription).toMatchObject({ value: `[it] ${FULL.jobDescription}`, translationType: 'AI' });
    const read = (await get('it')).json();
    expect(read.position.translationType).toBe('HUMAN');
    expect(read.jobDescription.translationType).toBe('AI');
  });

  it('translates only what is missing after an edit', async () => {
    await get('nl');
    fake.requests.length = 0;
    await j.call('PATCH', url, tenant.headers, { jobDescription: 'Own our APIs end to end.' });
    const res = await get('nl');
    expect(res.json().jobDescription).toEqual(ai('[nl] Own our APIs end to end.', 'Own our APIs end to end.'));
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].q).toEqual(['Own our APIs end to end.']);
  });

  it('falls back to the next language, then to the original, when the translator cannot help', async () => {
    fake.unsupportedTargets.add('xx');
    const next = await get('xx, es;q=0.5');
    expect(next.headers['content-language']).toBe('es');

    fake.failWith = 500;
    const down = await get('sv');
    expect(down.statusCode).toBe(200);
    expect(down.headers['content-language']).toBe('en');
    expect(down.json().position).toEqual({ value: FULL.position, original: FULL.position, sourceLanguage: 'en', translated: false, translationType: null });
    // Stored translations still serve while the translator is down.
    expect((await get('es')).json().position.translationType).toBe('AI');
  });

  it('translates list positions in one batched call per language and keeps them', async () => {
    const other = await t.tenant();
    for (const position of ['Cook', 'Driver', 'Cook']) await j.create(other.headers, { ...FULL, position });
    const res = await j.call('GET', '/public/v1/job-listings', { ...other.headers, 'accept-language': 'fi' });
    expect(res.headers['content-language']).toBe('fi');
    expect(res.json().data.map((item: { position: unknown }) => item.position)).toEqual([
      { value: '[fi] Cook', translated: true },
      { value: '[fi] Driver', translated: true },
      { value: '[fi] Cook', translated: true },
    ]);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].q).toEqual(['Cook', 'Driver']);
    await j.call('GET', '/public/v1/job-listings', { ...other.headers, 'accept-language': 'fi' });
    expect(fake.requests).toHaveLength(1);

    fake.failWith = 503;
    const down = await j.call('GET', '/public/v1/job-listings', { ...other.headers, 'accept-language': 'da' });
    expect(down.statusCode).toBe(200);
    expect(down.headers['content-language']).toBe('en');
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
