// One normaliser for every language tag (docs/decisions.md, "Language tags"): a listing and a
// company accept and spell tags the same way.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCompany } from '../../src/modules/companies/service.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const listing = { position: 'Welder', positionType: 'FULL_TIME', workPlaceType: 'ON_SITE' };

it('spells a listing language canonically, extensions included; en_US is not a tag', async () => {
  const tenant = await t.tenant();
  const create = (language: string) =>
    t.app.inject({ method: 'POST', url: '/public/v1/job-listings', headers: tenant.headers, payload: { ...listing, language } });
  const buddhist = await create('EN-us-u-CA-buddhist');
  expect(buddhist.statusCode).toBe(201);
  expect(buddhist.headers['content-language']).toBe('en-US-u-ca-buddhist');
  expect(buddhist.json().position.sourceLanguage).toBe('en-US-u-ca-buddhist');
  expect((await create('en_US')).statusCode).toBe(422);
  expect((await create('english')).statusCode).toBe(422);
});

it('accepts the same tags as a company default language', async () => {
  expect((await createCompany(t.ctx, { name: 'Extension Co', defaultLanguage: 'EN-us-u-CA-buddhist' })).defaultLanguage).toBe(
    'en-US-u-ca-buddhist',
  );
  await expect(createCompany(t.ctx, { name: 'Underscore Co', defaultLanguage: 'en_US' })).rejects.toMatchObject({
    details: [{ field: 'defaultLanguage' }],
  });
  await expect(createCompany(t.ctx, { name: 'Bad Co', defaultLanguage: 'english' })).rejects.toMatchObject({
    details: [{ field: 'defaultLanguage', message: expect.stringMatching(/BCP 47/) }],
  });
});
