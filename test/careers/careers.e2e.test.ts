// The careers pages end to end in Debian's Chromium (playwright-core), against the real app on a
// real port and a real database: a candidate opens the board, filters it, opens a listing in German
// and applies with a PDF; the application and its résumé are then read through the API, and
// application.created reaches a local webhook receiver. Every page: axe (no serious or critical
// violation) at 1280 and 390 pixels, no request to another host, no CSP violation.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createJobListing, publishJobListing, putJobListingTranslation } from '../../src/modules/job-listings/service.ts';
import { runWebhookWorkerOnce } from '../../src/modules/webhooks/delivery-worker.ts';
import { createWebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { SAMPLES } from '../documents/samples.ts';
import { enableBoard } from '../helpers/factories.ts';
import { startListeningApp, type ListeningApp } from '../identity/server.ts';
import { checkPage, launch, type Driver } from '../dashboard/browser.ts';

let t: ListeningApp;
let driver: Driver;
let page: Page;
let receiver: Server;
let receiverUrl: string;
const received: Array<{ type: string; data: Record<string, unknown> }> = [];
const cspViolations: string[] = [];
let apiHeaders: Record<string, string>;
let companyId: string;
const slug = 'e2e-careers';
let engineerId: string;

beforeAll(async () => {
  t = await startListeningApp();
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push(JSON.parse(body) as { type: string; data: Record<string, unknown> });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;

  const tenant = await t.tenant();
  companyId = tenant.companyId;
  apiHeaders = { ...tenant.headers, 'content-type': 'application/json' };
  await enableBoard(t, companyId, slug, {
    publicName: 'Zeitwerk GmbH',
    intro: { en: 'We build clocks that keep time.', de: 'Wir bauen Uhren, die die Zeit halten.' },
    accentColor: '#ffd43b',
    privacyPolicyUrl: 'https://zeitwerk.example/datenschutz',
    showSalary: true,
  });
  const make = async (input: Record<string, unknown>) => {
    const { listing } = await createJobListing(t.ctx, companyId, {
      positionType: 'FULL_TIME',
      workPlaceType: 'ON_SITE',
      jobDescription: 'You keep our clocks running.\n\nEvery day.',
      ...input,
    } as Parameters<typeof createJobListing>[2]);
    await publishJobListing(t.ctx, companyId, listing.id);
    return listing.id;
  };
  engineerId = await make({
    position: 'Clock engineer',
    workPlaceType: 'REMOTE',
    address: { city: 'Berlin', country: 'DE' },
    currency: 'EUR',
    salaryBase: 55000,
    salaryMax: 70000,
    paymentInterval: 'YEARLY',
    skills: [{ value: 'Precision', type: 'SKILL' }],
    benefits: ['Free watch'],
  });
  await putJobListingTranslation(t.ctx, companyId, engineerId, 'de', {
    position: 'Uhrmacher-Ingenieur (m/w/d)',
    jobDescription: 'Sie halten unsere Uhren am Laufen.\n\nJeden Tag.',
    skills: ['Präzision'],
    benefits: ['Kostenlose Uhr'],
  });
  await make({ position: 'Shop assistant', positionType: 'PART_TIME', address: { city: 'Hamburg', country: 'DE' } });

  const subscribed = await t.app.inject({
    method: 'POST',
    url: '/public/v1/webhooks',
    headers: apiHeaders,
    payload: { url: receiverUrl, events: ['application.created'] },
  });
  expect(subscribed.statusCode).toBe(201);

  driver = await launch(t.baseUrl);
  page = driver.page;
  page.setDefaultTimeout(15_000);
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
}, 180_000);

afterAll(async () => {
  await driver?.close();
  await t?.close();
  receiver?.close();
});

describe('a candidate on the careers pages', () => {
  it('opens the board: the company name, intro and open listings, accessible at both widths', async () => {
    await page.goto(`/careers/${slug}?lang=en`);
    await page.getByRole('heading', { level: 1, name: 'Jobs at Zeitwerk GmbH' }).waitFor();
    await page.getByText('We build clocks that keep time.').waitFor();
    expect(await page.getByRole('link', { name: 'Clock engineer' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Shop assistant' }).count()).toBe(1);
    expect(await checkPage(page, 'careers-list')).toEqual([]);
  });

  it('filters the list: remote work only', async () => {
    await page.getByLabel('Work place').selectOption('REMOTE');
    await page.getByRole('button', { name: 'Show jobs' }).click();
    await page.waitForURL(/workPlaceType=REMOTE/);
    expect(await page.getByRole('link', { name: 'Clock engineer' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Shop assistant' }).count()).toBe(0);
    await page.getByText('1 open position').waitFor();
  });

  it('opens the listing and switches it to German: the translation and the German page words', async () => {
    await page.getByRole('link', { name: 'Clock engineer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Clock engineer' }).waitFor();
    await page.getByRole('link', { name: 'Deutsch' }).click();
    await page.getByRole('heading', { level: 1, name: 'Uhrmacher-Ingenieur (m/w/d)' }).waitFor();
    await page.getByText('Sie halten unsere Uhren am Laufen.').waitFor();
    await page.getByRole('heading', { name: 'Jetzt bewerben' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}') as Record<string, unknown>;
    expect(jsonLd).toMatchObject({ '@type': 'JobPosting', title: 'Uhrmacher-Ingenieur (m/w/d)', jobLocationType: 'TELECOMMUTE' });
    expect(await checkPage(page, 'careers-job-de')).toEqual([]);
  });

  it('is told what is missing when sending without the consent, and the typed values stay', async () => {
    await page.getByLabel('Vorname').fill('Grete');
    await page.getByLabel('Nachname').fill('Uhrig');
    await page.getByLabel('E-Mail').fill('grete.uhrig@example.com');
    await page.getByLabel(/^Lebenslauf/).setInputFiles({ name: 'lebenslauf.pdf', mimeType: 'application/pdf', buffer: SAMPLES.pdf });
    // A person takes a while to fill a form: the minimum time to submit passes on the app's clock.
    t.clock.advance(60_000);
    // The browser's own check would stop the form: the server's answer is what is tested here.
    await page.locator('form.apply').evaluate((form: { setAttribute(name: string, value: string): void }) => form.setAttribute('novalidate', ''));
    await page.getByRole('button', { name: 'Bewerbung absenden' }).click();
    await page.getByRole('heading', { name: 'Bitte prüfen Sie das Formular' }).waitFor();
    await page.getByText('Bitte stimmen Sie der Verarbeitung Ihrer Daten zu.').first().waitFor();
    expect(await page.getByLabel('Vorname').inputValue()).toBe('Grete');
    expect(await checkPage(page, 'careers-apply-errors-de')).toEqual([]);
  });

  it('applies with a PDF résumé and sees the confirmation', async () => {
    await page.getByLabel(/^Lebenslauf/).setInputFiles({ name: 'lebenslauf.pdf', mimeType: 'application/pdf', buffer: SAMPLES.pdf });
    await page.getByLabel(/Ich bin einverstanden/).check();
    t.clock.advance(60_000);
    await page.getByRole('button', { name: 'Bewerbung absenden' }).click();
    await page.getByRole('heading', { level: 1, name: 'Vielen Dank für Ihre Bewerbung' }).waitFor();
    await page.getByText('Uhrmacher-Ingenieur (m/w/d)', { exact: false }).waitFor();
    expect(await checkPage(page, 'careers-applied-de')).toEqual([]);
  });

  it('finds the application and its résumé through the API, and application.created reaches the receiver', async () => {
    const list = await t.app.inject({ method: 'GET', url: `/public/v1/applications?jobListingId=${engineerId}`, headers: apiHeaders });
    expect(list.statusCode).toBe(200);
    const applications = (list.json() as { data: Array<{ id: string; source: string; jobSeekerId: string }> }).data;
    expect(applications).toHaveLength(1);
    expect(applications[0].source).toBe('CAREERS_PAGE');
    const files = await t.app.inject({ method: 'GET', url: `/public/v1/candidates/${applications[0].jobSeekerId}/files`, headers: apiHeaders });
    expect(files.statusCode).toBe(200);
    const [file] = (files.json() as { data: Array<{ id: string; contentType: string; fileName: string }> }).data;
    expect(file).toMatchObject({ contentType: 'application/pdf', fileName: 'lebenslauf.pdf' });
    const content = await t.app.inject({ method: 'GET', url: `/public/v1/candidates/${applications[0].jobSeekerId}/files/${file.id}/content`, headers: apiHeaders });
    expect(content.rawPayload.equals(SAMPLES.pdf)).toBe(true);

    const transport = createWebhookTransport({ allowLocal: true });
    try {
      await runWebhookWorkerOnce({ db: t.ctx.db, clock: t.clock, secrets: t.ctx.secrets, transport, log: { debug() {}, info() {}, warn() {}, error() {} } as never, leaseMs: 60_000, concurrency: 2 });
    } finally {
      await transport.close();
    }
    expect(received.map((event) => event.type)).toContain('application.created');
    expect(JSON.stringify(received.find((event) => event.type === 'application.created'))).toContain(applications[0].id);
  });

  it('loaded nothing from another host and broke no CSP rule on the way', () => {
    expect(driver.foreignRequests).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
