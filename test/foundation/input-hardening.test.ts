// Inputs that used to pass validation and then broke the database or the process (issue 9,
// items 5, 6, 7 and 16): each must be a clear error in the envelope, never a 500.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

const LISTING = { position: 'Backend engineer', positionType: 'FULL_TIME', workPlaceType: 'REMOTE' };
const CANDIDATE = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };

let t: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.tenant();
});
afterAll(async () => t.close());

function details(body: Record<string, unknown>): { field: string; message: string }[] {
  return body.details as { field: string; message: string }[];
}

describe('NUL bytes and lone surrogates (one rule for every string)', () => {
  it.each([
    ['a NUL in a job listing position', '/public/v1/job-listings', { ...LISTING, position: 'Back\u0000end' }, 'position'],
    ['a lone high surrogate in a job description', '/public/v1/job-listings', { ...LISTING, jobDescription: 'x\ud800y' }, 'jobDescription'],
    ['a lone low surrogate in a benefit', '/public/v1/job-listings', { ...LISTING, benefits: ['ok', 'bad\udc00'] }, 'benefits[1]'],
    ['a NUL in an import first name', '/public/v1/candidates/import', { candidates: [{ ...CANDIDATE, firstName: 'A\u0000' }] }, 'candidates[0].firstName'],
    ['a NUL in a webhook url', '/public/v1/webhooks', { url: 'https://example.com/\u0000', events: ['job_listing.created'] }, 'url'],
  ])('refuses %s with 422 naming the field', async (_name, url, payload, field) => {
    const res = await t.app.inject({ method: 'POST', url, headers: tenant.headers, payload });
    const body = expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', url);
    expect(details(body)).toContainEqual({ field, message: expect.stringMatching(/NUL|surrogate/) });
  });

  it('refuses them in query strings too', async () => {
    const res = await t.app.inject({ url: '/public/v1/candidates?q=ab%00cd', headers: tenant.headers });
    const body = expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', '/public/v1/candidates');
    expect(details(body)).toContainEqual({ field: 'q', message: expect.stringMatching(/NUL/) });
    const surrogate = await t.app.inject({ url: '/public/v1/candidates?q=ab%ED%A0%80', headers: tenant.headers });
    // %ED%A0%80 is not valid UTF-8: the query decodes to U+FFFD, which is a fine character.
    expect(surrogate.statusCode).toBe(200);
  });

  it('keeps well-formed pairs (emoji) and other control characters', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/v1/job-listings',
      headers: tenant.headers,
      payload: { ...LISTING, position: 'Engineer \ud83d\ude80', jobDescription: 'line\nbreak\ttab' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().position.value).toBe('Engineer \ud83d\ude80');
  });
});

describe('dates the database cannot hold', () => {
  it.each([
    ['/public/v1/applications?updatedSince=0000-01-01T00:00:00Z', 'updatedSince'],
    ['/public/v1/applications?updatedSince=2024-06-30T23:59:60Z', 'updatedSince'],
    ['/public/v1/candidates?updatedSince=1800-01-01T00:00:00Z', 'updatedSince'],
    ['/public/v1/analytics/overview?to=9999-12-31', 'to'],
    ['/public/v1/analytics/overview?from=0000-01-01', 'from'],
  ])('%s is a 422', async (url, field) => {
    const res = await t.app.inject({ url, headers: tenant.headers });
    const body = expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', url.split('?')[0]);
    expect(details(body)).toContainEqual({ field, message: expect.stringMatching(/1900|2999|date/) });
  });

  it.each([
    ['startDate', '0000-01-01'],
    ['jobListingEndDate', '9999-12-31'],
    ['startDate', '2024-02-30'],
  ])('a job listing %s of %s is a 422', async (field, value) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/v1/job-listings',
      headers: tenant.headers,
      payload: { ...LISTING, [field]: value },
    });
    const body = expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', '/public/v1/job-listings');
    expect(details(body).map((d) => d.field)).toContain(field);
  });

  it('accepts ordinary dates, offsets and fractions', async () => {
    const a = await t.app.inject({ url: '/public/v1/applications?updatedSince=2024-06-30T23:59:59.999%2B02:00', headers: tenant.headers });
    expect(a.statusCode).toBe(200);
    const b = await t.app.inject({ url: '/public/v1/analytics/overview?from=2024-01-01&to=2999-12-31', headers: tenant.headers });
    expect(b.statusCode).toBe(200);
  });
});

describe('JSON nesting depth', () => {
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  it('refuses a deeply nested body with 400 in the envelope, with or without Idempotency-Key', async () => {
    for (const headers of [tenant.headers, { ...tenant.headers, 'idempotency-key': 'deep-1' }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/public/v1/job-listings',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: `{"position":${nested(100_000)}}`,
      });
      const body = expectErrorEnvelope(res, 400, 'BAD_REQUEST', '/public/v1/job-listings');
      expect(body.message).toMatch(/nest/i);
    }
  });

  it('counts depth through objects and arrays, not through strings', async () => {
    const ok = await t.app.inject({
      method: 'POST',
      url: '/public/v1/job-listings',
      headers: tenant.headers,
      payload: { ...LISTING, position: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{{{{{{' },
    });
    expect(ok.statusCode).toBe(201);
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/v1/job-listings',
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      payload: `{"a":${'{"b":'.repeat(40)}1${'}'.repeat(40)}}`,
    });
    expectErrorEnvelope(res, 400, 'BAD_REQUEST', '/public/v1/job-listings');
  });
});

describe('laxness', () => {
  it.each(['javascript:alert(1)', 'data:text/html,hi', 'ftp://example.com/cv.pdf', 'mailto:a@example.com'])(
    'refuses the candidate link %s',
    async (link) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/public/v1/candidates/import',
        headers: tenant.headers,
        payload: { candidates: [{ ...CANDIDATE, links: ['https://example.com/ok', link] }] },
      });
      const body = expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', '/public/v1/candidates/import');
      expect(details(body).map((d) => d.field)).toContain('candidates[0].links[1]');
    },
  );

  it('accepts http and https candidate links', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/v1/candidates/import',
      headers: tenant.headers,
      payload: { candidates: [{ ...CANDIDATE, links: ['https://example.com/a', 'http://example.com/b'] }] },
    });
    expect(res.statusCode).toBe(200);
  });

  it.each(['XX', 'ZZ', 'EU', 'UK'])('refuses the country %s', async (country) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/v1/job-listings',
      headers: tenant.headers,
      payload: { ...LISTING, address: { country } },
    });
    const body = expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', '/public/v1/job-listings');
    expect(details(body).map((d) => d.field)).toContain('address.country');
  });

  it('accepts real countries', async () => {
    for (const country of ['DE', 'GB', 'US', 'AX', 'ZW']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/public/v1/job-listings',
        headers: tenant.headers,
        payload: { ...LISTING, address: { country } },
      });
      expect(res.statusCode, country).toBe(201);
    }
  });

  it('caps language tags', async () => {
    const language = `en-${Array.from({ length: 60 }, () => 'abcdefgh').join('-')}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/v1/job-listings',
      headers: tenant.headers,
      payload: { ...LISTING, language },
    });
    const body = expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', '/public/v1/job-listings');
    expect(details(body).map((d) => d.field)).toContain('language');
  });

  it.each(['page=0x10', 'page=1e3', 'size=1e1', 'page=%2B1', 'page=1.0', 'size=%201', 'page='])(
    'refuses %s (decimal digits only)',
    async (query) => {
      const res = await t.app.inject({ url: `/public/v1/candidates?${query}`, headers: tenant.headers });
      const body = expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', '/public/v1/candidates');
      expect(details(body).map((d) => d.field)).toContain(query.split('=')[0]);
    },
  );

  it('still reads page=2&size=10', async () => {
    const res = await t.app.inject({ url: '/public/v1/candidates?page=2&size=10', headers: tenant.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().pagination).toMatchObject({ page: 2, size: 10 });
  });

  it('decodes a gzip body, applying the body limit after decoding', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/v1/job-listings',
      headers: { ...tenant.headers, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ ...LISTING, position: 'Zipped engineer' })),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().position.value).toBe('Zipped engineer');

    // 2 MB of spaces compress to a few kB: the limit counts the decoded bytes.
    const bomb = gzipSync(`{"position":"x"${' '.repeat(2 * 1024 * 1024)}}`);
    expect(bomb.length).toBeLessThan(10_000);
    const big = await t.app.inject({
      method: 'POST',
      url: '/public/v1/job-listings',
      headers: { ...tenant.headers, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: bomb,
    });
    expectErrorEnvelope(big, 413, 'PAYLOAD_TOO_LARGE', '/public/v1/job-listings');

    const broken = await t.app.inject({
      method: 'POST',
      url: '/public/v1/job-listings',
      headers: { ...tenant.headers, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: 'not gzip at all',
    });
    expectErrorEnvelope(broken, 400, 'BAD_REQUEST', '/public/v1/job-listings');
  });

  it('refuses other content encodings with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/v1/job-listings',
      headers: { ...tenant.headers, 'content-type': 'application/json', 'content-encoding': 'br' },
      payload: JSON.stringify(LISTING),
    });
    expectErrorEnvelope(res, 415, 'UNSUPPORTED_MEDIA_TYPE', '/public/v1/job-listings');
  });
});
