// Human translations through PUT, and Accept-Language / Content-Language, with no machine
// translator configured (the default): then no AI translation ever appears.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { api, eventsOf, FULL, MISSING_ID } from './helpers.ts';

let t: TestApp;
let j: ReturnType<typeof api>;
beforeAll(async () => {
  t = await buildTestApp();
  j = api(t);
});
afterAll(async () => t.close());

const GERMAN = {
  position: 'Senior-Backend-Entwickler',
  jobDescription: 'Baue und betreibe unsere APIs.',
  benefits: ['Mittagessen', 'Homeoffice-Tage'],
  skills: ['TypeScript', 'Deutsch', 'Auto'],
};
const FRENCH = { position: 'Ingénieur backend senior', salaryDescription: 'Plus une prime annuelle.' };

const human = (value: string, original: string) => ({ value, original, sourceLanguage: 'en', translated: true, translationType: 'HUMAN' });
const untranslated = (original: string) => ({ value: original, original, sourceLanguage: 'en', translated: false, translationType: null });

describe('translations', () => {
  let tenant: Tenant;
  let listing: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  let url: string;
  const get = (acceptLanguage?: string) =>
    j.call('GET', url, acceptLanguage === undefined ? tenant.headers : { ...tenant.headers, 'accept-language': acceptLanguage });

  beforeAll(async () => {
    tenant = await t.tenant();
    listing = await j.create(tenant.headers, FULL);
    url = `/public/v1/job-listings/${listing.id}`;
  });

  it('PUT stores a human translation and answers the listing in that language', async () => {
    const steps = listing.hiringProcessSteps as { id: string }[];
    const res = await j.call('PUT', `${url}/translations/de`, tenant.headers, {
      ...GERMAN,
      hiringProcessSteps: [{ id: steps[0].id, stepName: 'Telefonat', description: 'Dreißig Minuten mit einer Recruiterin.' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-language']).toBe('de');
    const body = res.json();
    expect(body.position).toEqual(human(GERMAN.position, FULL.position));
    expect(body.jobDescription).toEqual(human(GERMAN.jobDescription, FULL.jobDescription));
    expect(body.benefits).toEqual([human('Mittagessen', 'Lunch'), human('Homeoffice-Tage', 'Remote days')]);
    expect(body.skills.map((skill: { value: unknown }) => skill.value)).toEqual([
      human('TypeScript', 'TypeScript'),
      human('Deutsch', 'German'),
      human('Auto', 'Car'),
    ]);
    expect(body.hiringProcessSteps[0].stepName).toEqual(human('Telefonat', 'Phone call'));
    expect(body.hiringProcessSteps[0].description).toEqual(human('Dreißig Minuten mit einer Recruiterin.', 'Thirty minutes with a recruiter.'));
    // Texts without a German translation keep their original.
    expect(body.requirementsSummary).toEqual(untranslated(FULL.requirementsSummary));
    expect(body.hiringProcessSteps[1].stepName).toEqual(untranslated('Tech interview'));
    // Everything else is untouched.
    expect({ ...body, updatedAt: null }).toMatchObject({ id: listing.id, status: 'DRAFT', salaryBase: 70000, updatedAt: null });

    const [event] = await eventsOf(t, tenant.companyId, 'job_listing.updated');
    expect(event.data).toMatchObject({ id: listing.id, position: untranslated(FULL.position) });
  });

  it('answers a second language', async () => {
    const res = await j.call('PUT', `${url}/translations/fr`, tenant.headers, FRENCH);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-language']).toBe('fr');
    const fr = (await get('fr')).json();
    expect(fr.position).toEqual(human(FRENCH.position, FULL.position));
    expect(fr.salaryDescription).toEqual(human(FRENCH.salaryDescription, FULL.salaryDescription));
    expect(fr.jobDescription).toEqual(untranslated(FULL.jobDescription));
    const de = (await get('de')).json();
    expect(de.position.value).toBe(GERMAN.position);
    expect(de.salaryDescription).toEqual(untranslated(FULL.salaryDescription));
  });

  it('selects with Accept-Language (q-values, prefixes, *) and says which in Content-Language', async () => {
    const cases: [string | undefined, string, string][] = [
      [undefined, 'en', FULL.position],
      ['de', 'de', GERMAN.position],
      ['DE-ch', 'de', GERMAN.position],
      ['fr', 'fr', FRENCH.position],
      ['es, fr;q=0.4, de;q=0.6', 'de', GERMAN.position],
      ['de;q=0, fr;q=0.1', 'fr', FRENCH.position],
      ['it', 'en', FULL.position], // nothing in Italian: the original
      ['en-GB, de;q=0.5', 'en', FULL.position], // the source language itself
      ['*', 'en', FULL.position],
      ['*, de', 'en', FULL.position], // the first range that anything serves wins
      ['en, de', 'en', FULL.position],
      ['not a language', 'en', FULL.position],
    ];
    for (const [acceptLanguage, language, position] of cases) {
      const res = await get(acceptLanguage);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-language'], String(acceptLanguage)).toBe(language);
      expect(res.headers.vary).toContain('Accept-Language');
      expect(res.json().position.value, String(acceptLanguage)).toBe(position);
      expect(res.json().position.translated).toBe(language !== 'en');
    }
  });

  it('the list shows each position in the language asked for', async () => {
    const other = await j.create(tenant.headers, { ...FULL, position: 'Designer' });
    const res = await j.call('GET', '/public/v1/job-listings', { ...tenant.headers, 'accept-language': 'de' });
    expect(res.headers['content-language']).toBe('de, en');
    const byId = Object.fromEntries(res.json().data.map((item: { id: string; position: unknown }) => [item.id, item.position]));
    expect(byId[listing.id]).toEqual({ value: GERMAN.position, translated: true });
    expect(byId[other.id]).toEqual({ value: 'Designer', translated: false });
    const plain = await j.call('GET', '/public/v1/job-listings', tenant.headers);
    expect(plain.headers['content-language']).toBe('en');
    expect(plain.json().data.every((item: { position: { translated: boolean } }) => !item.position.translated)).toBe(true);
  });

  it('other endpoints answer in the language asked for too', async () => {
    const res = await j.call('PATCH', url, { ...tenant.headers, 'accept-language': 'fr' }, { referenceNumber: 'REF-43' });
    expect(res.headers['content-language']).toBe('fr');
    expect(res.json().position.value).toBe(FRENCH.position);
  });

  it('a new PUT replaces the earlier human translation into that language', async () => {
    await j.call('PUT', `${url}/translations/de`, tenant.headers, { position: 'Backend-Entwickler (Senior)' });
    const de = (await get('de')).json();
    expect(de.position.value).toBe('Backend-Entwickler (Senior)');
    expect(de.jobDescription).toEqual(untranslated(FULL.jobDescription));
    expect(de.benefits[0]).toEqual(untranslated('Lunch'));
  });

  it('editing an original retires its translations; the others stay', async () => {
    await j.call('PUT', `${url}/translations/de`, tenant.headers, { position: 'Entwickler', jobDescription: 'APIs bauen.' });
    await j.call('PATCH', url, tenant.headers, { position: 'Principal engineer' });
    const de = (await get('de')).json();
    expect(de.position).toEqual(untranslated('Principal engineer'));
    expect(de.jobDescription).toEqual(human('APIs bauen.', FULL.jobDescription));
    // Changing it back does not bring the old translation back: it was dropped.
    await j.call('PATCH', url, tenant.headers, { position: FULL.position });
    expect((await get('de')).json().position.translated).toBe(false);
  });

  it('refuses bad translations with 422 naming the field', async () => {
    const bad = async (lang: string, body: unknown, fields: string[]) => {
      const res = await j.call('PUT', `${url}/translations/${lang}`, tenant.headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().details.map((d: { field: string }) => d.field).sort()).toEqual(fields);
    };
    await bad('en', { position: 'x' }, ['lang']);
    await bad('EN', { position: 'x' }, ['lang']);
    await bad('x', { position: 'x' }, ['lang']);
    await bad('de', {}, ['(root)']);
    await bad('de', { title: 'x' }, ['title']);
    await bad('de', { position: '' }, ['position']);
    await bad('de', { benefits: ['only one'] }, ['benefits']);
    await bad('de', { hiringProcessSteps: [{ id: MISSING_ID, stepName: 'x' }] }, ['hiringProcessSteps[0].id']);
    const bare = await j.create(tenant.headers, { position: 'Tester', positionType: 'CONTRACT', workPlaceType: 'ON_SITE' });
    const res = await j.call('PUT', `/public/v1/job-listings/${bare.id}/translations/de`, tenant.headers, {
      position: 'Tester',
      jobDescription: 'Nichts',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'jobDescription', message: 'the listing has no such text to translate' }]);
  });

  it('answers 404 for an unknown listing', async () => {
    const res = await j.call('PUT', `/public/v1/job-listings/${MISSING_ID}/translations/de`, tenant.headers, { position: 'x' });
    expect(res.statusCode).toBe(404);
  });

  it('stores a regional language under its canonical tag', async () => {
    const res = await j.call('PUT', `${url}/translations/pt-br`, tenant.headers, { position: 'Engenheiro' });
    expect(res.headers['content-language']).toBe('pt-BR');
    expect((await get('pt')).headers['content-language']).toBe('pt-BR');
    expect((await get('pt-BR')).json().position.value).toBe('Engenheiro');
  });
});
