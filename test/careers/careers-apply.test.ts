// The careers pages' Apply form through HTTP on a real database and file store: an application
// goes in with its résumé; every refusal shows the form again with its message and stores nothing.
// With CAPTCHA configured (a local stand-in for the provider's verify endpoint), the listing page
// carries the provider's widget and the policy names its host; the answer is checked before
// anything is stored.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeJobListing, createJobListing, publishJobListing } from '../../src/modules/job-listings/service.ts';
import { multipartBody, SAMPLES } from '../documents/samples.ts';
import { countEvents, countRows, enableBoard, makeListing } from '../helpers/factories.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let tenant: Tenant;
let jobId: string;
const slug = 'apply-careers';

async function openListing(position: string): Promise<string> {
  const { listing } = await createJobListing(t.ctx, tenant.companyId, {
    position,
    positionType: 'FULL_TIME',
    workPlaceType: 'HYBRID',
    address: { city: 'Wien', country: 'AT' },
    jobDescription: 'Build things.',
  } as Parameters<typeof createJobListing>[2]);
  await publishJobListing(t.ctx, tenant.companyId, listing.id);
  return listing.id;
}

/** The form's start token, as the listing page hands it out. */
async function formToken(id = jobId): Promise<string> {
  const page = await t.app.inject({ method: 'GET', url: `/careers/${slug}/jobs/${id}` });
  expect(page.statusCode).toBe(200);
  return /name="formToken" value="([^"]+)"/.exec(page.body)![1];
}

const fields = (token: string, extra: Record<string, string> = {}) => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+43 1 234',
  coverLetter: 'I like engines.',
  links: 'https://ada.example',
  privacyConsent: 'true',
  website: '',
  formToken: token,
  ...extra,
});

async function apply(body: ReturnType<typeof multipartBody>, id = jobId, query = '') {
  return t.app.inject({ method: 'POST', url: `/careers/${slug}/jobs/${id}/apply${query}`, ...body });
}

const pdf = { name: 'resume', fileName: 'cv.pdf', contentType: 'application/pdf', bytes: SAMPLES.pdf };

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.tenant();
  await enableBoard(t, tenant.companyId, slug, { publicName: 'Apply & Co', privacyPolicyUrl: 'https://apply.example/privacy' });
  jobId = await openListing('Engine analyst');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the Apply form', () => {
  it('links the privacy policy and carries the honeypot, the start token and the consent', async () => {
    const page = await t.app.inject({ method: 'GET', url: `/careers/${slug}/jobs/${jobId}` });
    expect(page.body).toContain('href="https://apply.example/privacy"');
    expect(page.body).toContain('name="website"');
    expect(page.body).toContain('name="privacyConsent"');
    expect(page.body).toContain('enctype="multipart/form-data"');
    expect(page.body).toMatch(/name="formToken" value="\d+\.[\w-]+"/);
    // The résumé is the form's last field: it streams once every other field has arrived.
    expect(page.body.lastIndexOf('name="resume"')).toBeGreaterThan(page.body.lastIndexOf('name="privacyConsent"'));
    // CAPTCHA off (the default): no script, no widget, and the policy allows no other host.
    expect(page.body).not.toMatch(/<script src|cf-turnstile|h-captcha|<noscript/);
    expect(page.headers['content-security-policy']).toMatch(
      /^default-src 'none'; style-src 'self' 'sha256-[A-Za-z0-9+/=]+'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/,
    );
  });

  it('refuses a form sent faster than a person can fill it, storing nothing', async () => {
    const res = await apply(multipartBody(fields(await formToken()), pdf));
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('sent too soon or is too old');
    expect(await countRows(t, 'applications', tenant.companyId)).toBe(0);
  });

  it('refuses a filled honeypot, storing nothing', async () => {
    const token = await formToken();
    t.clock.advance(10_000);
    const res = await apply(multipartBody(fields(token, { website: 'https://spam.example' }), pdf));
    expect(res.statusCode).toBe(422);
    expect(await countRows(t, 'candidates', tenant.companyId)).toBe(0);
    expect(await countRows(t, 'applications', tenant.companyId)).toBe(0);
  });

  it('shows the form again without the consent: 422, the message at the checkbox, the values kept', async () => {
    const token = await formToken();
    t.clock.advance(10_000);
    const res = await apply(multipartBody(fields(token, { privacyConsent: '', firstName: 'Ada <b>' }), pdf), jobId, '?lang=de');
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('Bitte stimmen Sie der Verarbeitung Ihrer Daten zu.');
    expect(res.body).toContain('aria-invalid="true" aria-describedby="e-consent"');
    expect(res.body).toContain('value="Ada &lt;b&gt;"');
    expect(res.body).toContain('<meta name="robots" content="noindex">');
    expect(await countRows(t, 'applications', tenant.companyId)).toBe(0);
  });

  it('refuses a file that is no résumé format: 415 with the message at the file field', async () => {
    const token = await formToken();
    t.clock.advance(10_000);
    const res = await apply(multipartBody(fields(token), { name: 'resume', fileName: 'cv.html', contentType: 'text/html', bytes: SAMPLES.html }));
    expect(res.statusCode).toBe(415);
    expect(res.body).toContain('The résumé must be a PDF');
    expect(await countRows(t, 'applications', tenant.companyId)).toBe(0);
  });

  it('applies with a PDF: 201 and the confirmation; the application, its résumé and application.created are there', async () => {
    const token = await formToken();
    t.clock.advance(10_000);
    const res = await apply(multipartBody(fields(token), pdf));
    expect(res.statusCode).toBe(201);
    expect(res.body).toContain('Thank you for applying');
    expect(res.body).toContain('Engine analyst');
    expect(res.headers['cache-control']).toBe('no-store');
    const listed = await t.app.inject({ method: 'GET', url: `/public/v1/applications?jobListingId=${jobId}`, headers: tenant.headers });
    const [application] = (listed.json() as { data: Array<{ id: string; source: string; jobSeekerId: string }> }).data;
    expect(application.source).toBe('CAREERS_PAGE');
    const files = await t.app.inject({ method: 'GET', url: `/public/v1/candidates/${application.jobSeekerId}/files`, headers: tenant.headers });
    expect((files.json() as { data: Array<{ fileName: string; contentType: string }> }).data).toMatchObject([{ fileName: 'cv.pdf', contentType: 'application/pdf' }]);
    expect(await countEvents(t, tenant.companyId, 'application.created')).toBe(1);
  });

  it('says "already applied" to the same e-mail applying again: 409, nothing more stored', async () => {
    const token = await formToken();
    t.clock.advance(10_000);
    const res = await apply(multipartBody(fields(token, { email: 'ADA@example.com' }), pdf));
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('You have already applied for this job');
    expect(await countRows(t, 'applications', tenant.companyId)).toBe(1);
  });

  it('answers 410 for a listing closed meanwhile and 404 for an unknown board or listing', async () => {
    const id = await openListing('Soon closed');
    const token = await formToken(id);
    await closeJobListing(t.ctx, tenant.companyId, id);
    t.clock.advance(10_000);
    expect((await apply(multipartBody(fields(token, { email: 'late@example.com' }), pdf), id)).statusCode).toBe(410);
    const unknown = await t.app.inject({ method: 'POST', url: `/careers/no-such-board/jobs/${jobId}/apply`, ...multipartBody(fields(token), pdf) });
    expect(unknown.statusCode).toBe(404);
    expect((await apply(multipartBody(fields(token), pdf), 'not-a-uuid')).statusCode).toBe(404);
  });

  it('limits applications per address: 429 with Retry-After and a page asking to wait', async () => {
    const token = await formToken();
    let res;
    for (let i = 0; i < 12; i++) {
      res = await apply(multipartBody(fields(token, { email: `flood${i}@example.com`, privacyConsent: '' }), pdf));
      if (res.statusCode === 429) break;
    }
    expect(res!.statusCode).toBe(429);
    expect(Number(res!.headers['retry-after'])).toBeGreaterThan(0);
    expect(res!.body).toContain('Too many applications from your address');
  });
});

describe('the Apply form with CAPTCHA configured (Turnstile)', () => {
  let c: TestApp;
  let verify: Server;
  let verifyCalls: URLSearchParams[] = [];
  let owner: Tenant;
  let id: string;
  const captchaSlug = 'captcha-careers';
  const PROVIDER_HOST = 'https://challenges.cloudflare.com';

  beforeAll(async () => {
    // The provider's siteverify, stood in: it accepts the answer "human" with the right secret.
    verify = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        verifyCalls.push(form);
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ success: form.get('secret') === 'captcha-secret' && form.get('response') === 'human' }));
      });
    });
    await new Promise<void>((resolve) => verify.listen(0, '127.0.0.1', resolve));
    c = await buildTestApp({
      CAPTCHA_PROVIDER: 'turnstile',
      CAPTCHA_SECRET: 'captcha-secret',
      CAPTCHA_SITE_KEY: '0x4AAAAAAA-site',
      CAPTCHA_VERIFY_URL: `http://127.0.0.1:${(verify.address() as AddressInfo).port}/siteverify`,
    });
    owner = await c.tenant();
    await enableBoard(c, owner.companyId, captchaSlug);
    id = await makeListing(c, owner.companyId, 'ACTIVE', 'Captcha keeper');
  }, 120_000);
  afterAll(async () => {
    await c?.close();
    await new Promise((resolve) => verify?.close(resolve));
  });

  const page = () => c.app.inject({ method: 'GET', url: `/careers/${captchaSlug}/jobs/${id}` });
  /** A form shown, then sent a person's while later, with the widget's answer if any. */
  async function send(email: string, answer?: string) {
    const token = /name="formToken" value="([^"]+)"/.exec((await page()).body)![1];
    c.clock.advance(10_000);
    const body = multipartBody(
      { ...fields(token, { email }), ...(answer === undefined ? {} : { 'cf-turnstile-response': answer }) },
      pdf,
    );
    return c.app.inject({ method: 'POST', url: `/careers/${captchaSlug}/jobs/${id}/apply`, ...body });
  }

  it('the listing page carries the widget and its script, a line for no JavaScript; its policy names the provider and no other host', async () => {
    const res = await page();
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div class="cf-turnstile" data-sitekey="0x4AAAAAAA-site" data-language="en"></div>');
    expect(res.body).toContain(`<script src="${PROVIDER_HOST}/turnstile/v0/api.js" async defer></script>`);
    expect(res.body).toMatch(/<noscript><p class="hint">The spam check of this form needs JavaScript/);
    // Before the résumé: the widget's answer arrives before the file streams.
    expect(res.body.indexOf('cf-turnstile')).toBeLessThan(res.body.lastIndexOf('name="resume"'));
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain(`script-src ${PROVIDER_HOST};`);
    expect(csp).toContain(`frame-src ${PROVIDER_HOST};`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(new Set(csp.match(/https?:\/\/[^\s;]+/g))).toEqual(new Set([PROVIDER_HOST]));
    // The list page carries no form: its policy is as with CAPTCHA off.
    const list = await c.app.inject({ method: 'GET', url: `/careers/${captchaSlug}` });
    expect(String(list.headers['content-security-policy'])).not.toMatch(/script-src|frame-src|https:/);
    expect(list.body).not.toContain('<script');
  });

  it('refuses a form without the answer, or with one the provider refuses: the form again with the message, nothing stored', async () => {
    verifyCalls = [];
    const missing = await send('nobody@example.com');
    expect(missing.statusCode).toBe(422);
    expect(missing.body).toContain('The spam check was not completed or could not be confirmed.');
    expect(missing.body).toContain('aria-describedby="e-captcha"');
    expect(missing.body).toContain('value="nobody@example.com"');
    expect(verifyCalls).toHaveLength(0);

    const refused = await send('robot@example.com', 'robot');
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('The spam check was not completed or could not be confirmed.');
    expect(verifyCalls.map((call) => call.get('response'))).toEqual(['robot']);
    expect(await countRows(c, 'candidates', owner.companyId)).toBe(0);
    expect(await countRows(c, 'applications', owner.companyId)).toBe(0);
  });

  it('takes the application once the provider accepts the answer', async () => {
    verifyCalls = [];
    const res = await send('human@example.com', 'human');
    expect(res.statusCode).toBe(201);
    expect(res.body).toContain('Thank you for applying');
    expect(verifyCalls.map((call) => [call.get('secret'), call.get('response')])).toEqual([['captcha-secret', 'human']]);
    expect(await countRows(c, 'applications', owner.companyId)).toBe(1);
  });
});
