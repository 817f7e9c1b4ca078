// The public job board over HTTP, with no key: the board, its open listings and one listing (404
// for an unknown slug, a board that is off, a DRAFT or another company's listing; 410 once closed;
// no internal fields), CORS and ETag/304; and applying: the happy path (candidate, application
// with source CAREERS_PAGE, résumé file, application.created), and every refusal (bad file 415,
// missing consent 422, honeypot or too fast refused with nothing stored, rate limit 429, CAPTCHA
// refused by a local verify server, duplicate 409).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { updateBoardSettings } from '../../src/modules/companies/service.ts';
import { updateJobListing, putJobListingTranslation } from '../../src/modules/job-listings/service.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { countEvents, countRows, enableBoard, eventsOf, makeListing } from '../helpers/factories.ts';
import { multipartBody, SAMPLES } from '../documents/samples.ts';

let t: TestApp;
let companyId: string;
let otherCompanyId: string;
let slug: string;
let active: string;
let draft: string;
let closed: string;
let foreign: string;
let counter = 0;
const unique = (name: string) => `${name}-${Date.now().toString(36)}${(counter += 1)}`;

beforeAll(async () => {
  // The per-address limit is tested on an app of its own (below); the minimum time is 3 s.
  t = await buildTestApp({ BOARD_APPLY_PER_HOUR: '1000', BOARD_APPLY_MIN_SECONDS: '3' });
  companyId = (await t.tenant()).companyId;
  otherCompanyId = (await t.tenant()).companyId;
  slug = unique('acme');
  await enableBoard(t, companyId, slug, {
    publicName: 'Acme Careers',
    intro: { en: 'Work with us', de: 'Arbeite mit uns' },
    accentColor: '#AA3300',
    privacyPolicyUrl: 'https://acme.example/privacy',
  });
  active = await makeListing(t, companyId, 'ACTIVE', 'Backend engineer');
  await updateJobListing(t.ctx, companyId, active, { referenceNumber: 'INT-42', currency: 'EUR', salaryBase: 60000, salaryType: 'GROSS', paymentInterval: 'YEARLY', address: { city: 'Berlin', country: 'DE' } });
  await putJobListingTranslation(t.ctx, companyId, active, 'de', { position: 'Backend-Entwickler' });
  draft = await makeListing(t, companyId, 'DRAFT', 'Secret plan');
  closed = await makeListing(t, companyId, 'CLOSED', 'Closed role');
  foreign = await makeListing(t, otherCompanyId, 'ACTIVE', 'Elsewhere');
});
afterAll(() => t?.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('reading a board', () => {
  it('answers the board, its open listings and one listing, without a key and without internal fields', async () => {
    const board = await get(`/boards/${slug}`, { 'accept-language': 'de' });
    expect(board.statusCode).toBe(200);
    expect(board.json()).toMatchObject({
      slug,
      name: 'Acme Careers',
      intro: { language: 'de', text: 'Arbeite mit uns' },
      accentColor: '#aa3300',
      privacyPolicyUrl: 'https://acme.example/privacy',
      showSalary: false,
      captcha: null,
    });

    const jobs = await get(`/boards/${slug}/jobs`);
    expect(jobs.statusCode).toBe(200);
    const ids = jobs.json().data.map((job: { id: string }) => job.id);
    expect(ids).toEqual([active]);
    expect(jobs.json().pagination).toMatchObject({ page: 0, totalElements: 1 });
    expect(jobs.json().data[0]).toMatchObject({ location: { city: 'Berlin', country: 'DE' }, positionType: 'FULL_TIME' });

    const job = await get(`/boards/${slug}/jobs/${active}?lang=de`);
    expect(job.statusCode).toBe(200);
    expect(job.headers['content-language']).toBe('de');
    const body = job.json();
    expect(body.position).toMatchObject({ value: 'Backend-Entwickler', translated: true });
    for (const field of ['referenceNumber', 'companyId', 'rejectionReason', 'jobListingTags', 'status']) expect(body).not.toHaveProperty(field);
    expect(JSON.stringify(body)).not.toContain('INT-42');
    // The company does not show salaries.
    expect(body).toMatchObject({ currency: null, salaryBase: null, salaryType: null });
  });

  it('filters by work place type, position type, country and text', async () => {
    const filtered = async (query: string) => (await get(`/boards/${slug}/jobs?${query}`)).json().data.map((job: { id: string }) => job.id);
    expect(await filtered('country=DE')).toEqual([active]);
    expect(await filtered('country=FR')).toEqual([]);
    expect(await filtered('workPlaceType=REMOTE&positionType=FULL_TIME')).toEqual([active]);
    expect(await filtered('workPlaceType=ON_SITE')).toEqual([]);
    expect(await filtered('q=entwickler')).toEqual([active]);
    expect(await filtered('q=secret')).toEqual([]);
    expectErrorEnvelope(await get(`/boards/${slug}/jobs?workPlaceType=MOON`), 422, 'VALIDATION_ERROR', `/boards/${slug}/jobs`);
  });

  it('shows the salary once the company says so', async () => {
    const second = unique('pay');
    const owner = (await t.tenant()).companyId;
    await enableBoard(t, owner, second, { showSalary: true });
    const id = await makeListing(t, owner);
    await updateJobListing(t.ctx, owner, id, { currency: 'EUR', salaryBase: 50000 });
    expect((await get(`/boards/${second}/jobs/${id}`)).json()).toMatchObject({ currency: 'EUR', salaryBase: 50000 });
  });

  it('answers 404 for an unknown slug, a board that is off, a DRAFT or another company\'s listing; 410 for a closed one', async () => {
    expectErrorEnvelope(await get('/boards/no-such-board'), 404, 'NOT_FOUND', '/boards/no-such-board');
    expectErrorEnvelope(await get('/boards/no-such-board/jobs'), 404, 'NOT_FOUND', '/boards/no-such-board/jobs');
    const off = unique('off');
    const owner = (await t.tenant()).companyId;
    await updateBoardSettings(t.ctx, owner, { slug: off, enabled: false });
    const offListing = await makeListing(t, owner);
    expectErrorEnvelope(await get(`/boards/${off}`), 404, 'NOT_FOUND', `/boards/${off}`);
    expectErrorEnvelope(await get(`/boards/${off}/jobs/${offListing}`), 404, 'NOT_FOUND', `/boards/${off}/jobs/${offListing}`);
    expectErrorEnvelope(await get(`/boards/${slug}/jobs/${draft}`), 404, 'NOT_FOUND', `/boards/${slug}/jobs/${draft}`);
    expectErrorEnvelope(await get(`/boards/${slug}/jobs/${foreign}`), 404, 'NOT_FOUND', `/boards/${slug}/jobs/${foreign}`);
    const gone = expectErrorEnvelope(await get(`/boards/${slug}/jobs/${closed}`), 410, 'GONE', `/boards/${slug}/jobs/${closed}`);
    expect(gone.message).toMatch(/no longer open/);
  });

  it('is readable from any site (CORS) and cacheable: ETag, 304 on If-None-Match', async () => {
    for (const url of [`/boards/${slug}`, `/boards/${slug}/jobs`, `/boards/${slug}/jobs/${active}`]) {
      const first = await get(url, { origin: 'https://acme.example' });
      expect(first.statusCode).toBe(200);
      expect(first.headers['access-control-allow-origin']).toBe('*');
      expect(first.headers['cache-control']).toMatch(/public/);
      const etag = first.headers.etag as string;
      expect(etag).toBeTruthy();
      const again = await get(url, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      // Another language is another representation.
      expect((await get(url, { 'if-none-match': etag, 'accept-language': 'de' })).statusCode).toBe(200);
    }
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: `/boards/${slug}/jobs`,
      headers: { origin: 'https://acme.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toMatch(/If-None-Match/i);
  });
});

describe('applying', () => {
  async function formToken(listing = active): Promise<string> {
    const res = await t.app.inject({ method: 'POST', url: `/boards/${slug}/jobs/${listing}/application-form` });
    expect(res.statusCode).toBe(200);
    return res.json().formToken as string;
  }

  /** A form token as old as a person needs (the clock moved past the minimum). */
  async function readyToken(listing = active): Promise<string> {
    const token = await formToken(listing);
    t.clock.advance(5_000);
    return token;
  }

  const fieldsFor = (email: string, token: string, extra: Record<string, string> = {}) => ({
    firstName: 'Grace',
    lastName: 'Hopper',
    email,
    phone: '+49 30 1234',
    coverLetter: 'I would love to join.',
    links: 'https://grace.example\nhttps://github.com/grace',
    privacyConsent: 'on',
    formToken: token,
    website: '',
    ...extra,
  });

  const apply = (fields: Record<string, string>, file?: { bytes: Buffer; fileName: string }, listing = active, remoteAddress?: string) => {
    const { payload, headers } = multipartBody(fields, file ? { name: 'resume', fileName: file.fileName, bytes: file.bytes } : undefined);
    return t.app.inject({ method: 'POST', url: `/boards/${slug}/jobs/${listing}/applications`, payload, headers, ...(remoteAddress ? { remoteAddress } : {}) });
  };

  async function storedFor(email: string) {
    const [row] = await queryRows<{ candidates: number; files: number }>(
      t.database.db,
      sql`select (select count(*)::int from candidates where company_id = ${companyId} and lower(email) = lower(${email})) as candidates,
                 (select count(*)::int from candidate_files f join candidates c on c.id = f.candidate_id where c.company_id = ${companyId} and lower(c.email) = lower(${email})) as files`,
    );
    return row;
  }

  it('creates the candidate, the application (CAREERS_PAGE), the résumé and application.created', async () => {
    const email = `${unique('grace')}@example.com`;
    const before = await countEvents(t, companyId, 'application.created');
    const res = await apply(fieldsFor(email, await readyToken()), { bytes: SAMPLES.pdf, fileName: 'cv.pdf' });
    expect(res.statusCode).toBe(201);
    const { applicationId, position } = res.json();
    expect(position).toBe('Backend engineer');

    const [application] = await queryRows<{ source: string; cover_letter: string; email: string; links: string[]; candidate_source: string }>(
      t.database.db,
      sql`select a.source, a.cover_letter, c.email, c.links, c.source as candidate_source from applications a join candidates c on c.id = a.candidate_id where a.id = ${applicationId}`,
    );
    expect(application).toMatchObject({ source: 'CAREERS_PAGE', cover_letter: 'I would love to join.', email, candidate_source: 'CAREERS_PAGE' });
    expect(application.links).toEqual(['https://grace.example', 'https://github.com/grace']);
    const [file] = await queryRows<{ kind: string; content_type: string; uploaded_by_type: string; application_id: string }>(
      t.database.db,
      sql`select kind, content_type, uploaded_by_type, application_id from candidate_files where application_id = ${applicationId}`,
    );
    expect(file).toMatchObject({ kind: 'RESUME', content_type: 'application/pdf', uploaded_by_type: 'CANDIDATE', application_id: applicationId });
    expect(await countEvents(t, companyId, 'application.created')).toBe(before + 1);
    const events = await eventsOf(t, companyId, 'application.created');
    expect(JSON.stringify(events.at(-1))).toContain(applicationId);

    // The same e-mail again (any letter case): 409, as the API answers, nothing more stored.
    const again = await apply(fieldsFor(email.toUpperCase(), await readyToken()), { bytes: SAMPLES.pdf, fileName: 'cv.pdf' });
    expectErrorEnvelope(again, 409, 'CONFLICT', `/boards/${slug}/jobs/${active}/applications`);
    expect(JSON.stringify(again.json())).not.toContain(applicationId);
    expect(await storedFor(email)).toEqual({ candidates: 1, files: 1 });
  });

  it('refuses a file that is not an accepted type (415) and a missing consent (422), storing nothing', async () => {
    const email = `${unique('bad')}@example.com`;
    const candidatesBefore = await countRows(t, 'candidates', companyId);
    expectErrorEnvelope(await apply(fieldsFor(email, await readyToken()), { bytes: SAMPLES.html, fileName: 'cv.pdf' }), 415, 'UNSUPPORTED_MEDIA_TYPE', `/boards/${slug}/jobs/${active}/applications`);
    const noConsent = await apply(fieldsFor(email, await readyToken(), { privacyConsent: '' }), { bytes: SAMPLES.pdf, fileName: 'cv.pdf' });
    const body = expectErrorEnvelope(noConsent, 422, 'VALIDATION_ERROR', `/boards/${slug}/jobs/${active}/applications`);
    expect(body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'privacyConsent' })]));
    expect(await countRows(t, 'candidates', companyId)).toBe(candidatesBefore);
  });

  it('refuses a filled honeypot, a form sent too fast and a missing or foreign token, storing nothing', async () => {
    const email = `${unique('bot')}@example.com`;
    const candidatesBefore = await countRows(t, 'candidates', companyId);
    const applicationsBefore = await countRows(t, 'applications', companyId);
    const objectsBefore = await countObjects();
    const path = `/boards/${slug}/jobs/${active}/applications`;
    expectErrorEnvelope(await apply(fieldsFor(email, await readyToken(), { website: 'http://spam.example' }), { bytes: SAMPLES.pdf, fileName: 'cv.pdf' }), 422, 'VALIDATION_ERROR', path);
    // Sent right after the form was shown: too fast for a person.
    const tooFast = await apply(fieldsFor(email, await formToken()), { bytes: SAMPLES.pdf, fileName: 'cv.pdf' });
    expect(expectErrorEnvelope(tooFast, 422, 'VALIDATION_ERROR', path).details).toEqual([expect.objectContaining({ field: 'formToken' })]);
    const { formToken: _omitted, ...withoutToken } = fieldsFor(email, '');
    expectErrorEnvelope(await apply(withoutToken, { bytes: SAMPLES.pdf, fileName: 'cv.pdf' }), 422, 'VALIDATION_ERROR', path);
    // A token of another listing does not open this one.
    const otherActive = await makeListing(t, companyId, 'ACTIVE', 'Designer');
    expectErrorEnvelope(await apply(fieldsFor(email, await readyToken(otherActive)), { bytes: SAMPLES.pdf, fileName: 'cv.pdf' }), 422, 'VALIDATION_ERROR', path);
    expect(await countRows(t, 'candidates', companyId)).toBe(candidatesBefore);
    expect(await countRows(t, 'applications', companyId)).toBe(applicationsBefore);
    expect(await countObjects()).toBe(objectsBefore);
  });

  async function countObjects(): Promise<number> {
    let n = 0;
    for await (const _key of t.ctx.fileStore!.list('candidates/')) n += 1;
    return n;
  }

  it('answers 404 and 410 to applications for a listing that is not open', async () => {
    expectErrorEnvelope(await apply(fieldsFor('x@example.com', 'x'), undefined, draft), 404, 'NOT_FOUND', `/boards/${slug}/jobs/${draft}/applications`);
    expectErrorEnvelope(await apply(fieldsFor('x@example.com', 'x'), undefined, foreign), 404, 'NOT_FOUND', `/boards/${slug}/jobs/${foreign}/applications`);
    expectErrorEnvelope(await apply(fieldsFor('x@example.com', 'x'), undefined, closed), 410, 'GONE', `/boards/${slug}/jobs/${closed}/applications`);
  });
});

describe('limits and CAPTCHA', () => {
  let limited: TestApp;
  let verify: Server;
  let verifyCalls: string[] = [];
  let boardSlug: string;
  let listing: string;

  beforeAll(async () => {
    verify = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        verifyCalls.push(body);
        const form = new URLSearchParams(body);
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ success: form.get('secret') === 'captcha-secret' && form.get('response') === 'human' }));
      });
    });
    await new Promise<void>((resolve) => verify.listen(0, '127.0.0.1', resolve));
    limited = await buildTestApp({
      BOARD_APPLY_PER_HOUR: '3',
      RATE_LIMIT_PER_MINUTE: '20',
      BOARD_APPLY_MIN_SECONDS: '0',
      CAPTCHA_PROVIDER: 'hcaptcha',
      CAPTCHA_SECRET: 'captcha-secret',
      CAPTCHA_SITE_KEY: 'site-key',
      CAPTCHA_VERIFY_URL: `http://127.0.0.1:${(verify.address() as AddressInfo).port}/siteverify`,
    });
    const owner = (await limited.tenant()).companyId;
    boardSlug = unique('limited');
    await enableBoard(limited, owner, boardSlug);
    listing = await makeListing(limited, owner);
  });
  afterAll(async () => {
    await limited?.close();
    await new Promise((resolve) => verify?.close(resolve));
  });

  const send = async (email: string, captcha: string | undefined, remoteAddress: string) => {
    const token = (await limited.app.inject({ method: 'POST', url: `/boards/${boardSlug}/jobs/${listing}/application-form` })).json().formToken;
    const { payload, headers } = multipartBody({
      firstName: 'Alan',
      lastName: 'Turing',
      email,
      privacyConsent: 'true',
      formToken: token,
      ...(captcha === undefined ? {} : { 'h-captcha-response': captcha }),
    });
    return limited.app.inject({ method: 'POST', url: `/boards/${boardSlug}/jobs/${listing}/applications`, payload, headers, remoteAddress });
  };

  it('names the CAPTCHA on the board, refuses an answer the provider refuses, accepts one it accepts', async () => {
    expect((await limited.app.inject({ method: 'GET', url: `/boards/${boardSlug}` })).json().captcha).toEqual({ provider: 'hcaptcha', siteKey: 'site-key' });
    const path = `/boards/${boardSlug}/jobs/${listing}/applications`;
    expect(expectErrorEnvelope(await send(`${unique('a')}@example.com`, undefined, '10.0.0.1'), 422, 'VALIDATION_ERROR', path).details).toEqual([
      expect.objectContaining({ field: 'captchaToken' }),
    ]);
    verifyCalls = [];
    expectErrorEnvelope(await send(`${unique('a')}@example.com`, 'robot', '10.0.0.2'), 422, 'VALIDATION_ERROR', path);
    expect(verifyCalls).toHaveLength(1);
    expect(new URLSearchParams(verifyCalls[0]).get('remoteip')).toBe('10.0.0.2');
    expect((await send(`${unique('a')}@example.com`, 'human', '10.0.0.3')).statusCode).toBe(201);
  });

  it('limits applications per address: 429 in the envelope with Retry-After', async () => {
    const path = `/boards/${boardSlug}/jobs/${listing}/applications`;
    for (let i = 0; i < 3; i += 1) expect((await send(`${unique('r')}@example.com`, 'human', '10.0.9.9')).statusCode).toBe(201);
    const refused = await send(`${unique('r')}@example.com`, 'human', '10.0.9.9');
    expectErrorEnvelope(refused, 429, 'TOO_MANY_REQUESTS', path);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held back.
    expect((await send(`${unique('r')}@example.com`, 'human', '10.0.9.10')).statusCode).toBe(201);
  });

  it('limits reads per address too (no key to count by): RATE_LIMIT_PER_MINUTE', async () => {
    const read = () => limited.app.inject({ method: 'GET', url: `/boards/${boardSlug}/jobs`, remoteAddress: '10.0.8.8' });
    for (let i = 0; i < 20; i += 1) expect((await read()).statusCode).toBe(200);
    expectErrorEnvelope(await read(), 429, 'TOO_MANY_REQUESTS', `/boards/${boardSlug}/jobs`);
    expect((await limited.app.inject({ method: 'GET', url: `/boards/${boardSlug}/jobs`, remoteAddress: '10.0.8.9' })).statusCode).toBe(200);
  });
});
