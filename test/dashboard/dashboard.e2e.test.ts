// The company dashboard end to end: Debian's Chromium (playwright-core) signs in through /oauth2
// with the development sign-in and uses every page against the real app on a real port and a real
// database. Each page is checked with axe-core (no serious or critical violation) and
// photographed at 1280 and 390 pixels wide into docs/screenshots/. One browser and one page for
// the whole file: the steps build on each other, in order.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildDashboard } from '../../scripts/build-dashboard.ts';
import { runWebhookWorkerOnce } from '../../src/modules/webhooks/delivery-worker.ts';
import { createWebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { ALL_SCOPES } from '../../src/modules/api-keys/scopes.ts';
import { getCompany } from '../../src/modules/companies/service.ts';
import { getMembership } from '../../src/modules/users/service.ts';
import { userByEmail } from '../helpers/users.ts';
import { startListeningApp, type ListeningApp } from '../identity/server.ts';
import { checkPage, launch, type Driver } from './browser.ts';

let t: ListeningApp;
let receiver: Server;
let receiverUrl: string;
const received: string[] = [];
let driver: Driver;
let page: Page;
const email = `recruiter-${randomUUID().slice(0, 8)}@example.com`;

beforeAll(async () => {
  // The app reads dashboard/dist when it is built: build first (a no-op when current).
  expect(buildDashboard({ quiet: true })).toBe(true);
  t = await startListeningApp({ DEV_SIGN_IN: 'true' });
  // The webhook receiver: a local endpoint (the test app allows loopback addresses).
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push(body);
      response.writeHead(200, { 'content-type': 'text/plain' }).end(`thanks for ${JSON.parse(body).type}`);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  driver = await launch(t.baseUrl);
  page = driver.page;
  page.setDefaultTimeout(15_000);
}, 180_000);

afterAll(async () => {
  await driver?.close();
  await t?.close();
  receiver?.close();
});

async function open(path: string, heading: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: heading, exact: true }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe(`/dashboard${path}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

let checkerKey: string | undefined;
/** Headers with an API key of the signed-in user's company (made here), to check what the page did. */
async function checker(): Promise<Record<string, string>> {
  if (!checkerKey) {
    const user = await userByEmail(t.ctx, email);
    const membership = await getMembership(t.ctx, user!.id);
    checkerKey = await t.keyFor(membership!.companyId, [...ALL_SCOPES]);
  }
  return { 'x-api-key': checkerKey };
}

async function companyId(): Promise<string> {
  return (await getMembership(t.ctx, (await userByEmail(t.ctx, email))!.id))!.companyId;
}

/** Calls the public API as the user's company (the shape is the test's to know). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function api(path: string, method = 'GET', body?: unknown): Promise<any> {
  const response = await fetch(`${t.baseUrl}${path}`, {
    method,
    headers: { ...(await checker()), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return response.json();
}

async function expectAccessible(name: string): Promise<void> {
  // Nothing still loading (the loading indicators say so with data-loading).
  await expect.poll(() => page.locator('[data-loading]').count()).toBe(0);
  expect(await checkPage(page, name)).toEqual([]);
}

describe('dashboard (Chromium, end to end)', { timeout: 120_000 }, () => {
  it('/ leads to the dashboard, which signs in through /oauth2 with the development sign-in', async () => {
    await page.goto('/');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Name (optional)').fill('Rita Recruiter');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/');
    await expect.poll(() => page.getByText(`${email} · Admin`).isVisible()).toBe(true);
  });

  it('API keys: create one, use its raw key, rename it, revoke it and see the key refused', async () => {
    await open('/api-keys', 'API keys');
    await page.getByText('No API keys yet').waitFor();
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Label').fill('ATS sync');
    await dialog.getByLabel('jobs:write').check();
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    const rawKey = (await shown.getByTestId('raw-key').textContent())!.trim();
    expect(rawKey).toMatch(/^rk_live_/);
    await shown.getByRole('button', { name: 'I have stored it' }).click();

    const call = () => fetch(`${t.baseUrl}/public/v1/job-listings`, { headers: { 'x-api-key': rawKey } });
    expect((await call()).status).toBe(200);
    const row = page.getByRole('row', { name: /ATS sync/ });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('jobs:write');
    await expectAccessible('api-keys');

    await row.getByRole('button', { name: 'Rename ATS sync' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename API key' });
    await rename.getByLabel('Label').fill('ATS sync (production)');
    await rename.getByRole('button', { name: 'Save' }).click();
    const renamed = page.getByRole('row', { name: /ATS sync \(production\)/ });
    await renamed.waitFor();
    // The call above was seen: "last used" is no longer "never" once the list is read again.
    await expect.poll(() => renamed.textContent()).not.toContain('never');

    await renamed.getByRole('button', { name: /^Revoke/ }).click();
    await page.getByRole('dialog', { name: 'Revoke API key?' }).getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => renamed.textContent()).toContain('Inactive');
    expect((await call()).status).toBe(401);
  });

  it('webhooks: create one (secret shown once), send a test to a local receiver, see the delivery, redeliver it', async () => {
    await open('/webhooks', 'Webhooks');
    await page.getByText('No webhooks yet').waitFor();
    await expectAccessible('webhooks-empty');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook' });
    await dialog.getByLabel('Endpoint URL').fill(receiverUrl);
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    const secret = page.getByRole('dialog', { name: 'Signing secret' });
    expect((await secret.getByTestId('signing-secret').textContent())!.trim()).toMatch(/^whsec_/);
    await secret.getByRole('button', { name: 'I have stored it' }).click();

    await page.getByRole('button', { name: `Open ${receiverUrl}` }).click();
    const drawer = page.getByRole('dialog', { name: 'Webhook' });
    await drawer.getByRole('button', { name: 'Send test' }).click();
    const result = drawer.getByTestId('test-result');
    await result.waitFor();
    expect(await result.textContent()).toContain('HTTP 200');
    expect(await result.textContent()).toContain('thanks for ping');
    expect(received).toHaveLength(1);
    const delivery = drawer.getByTestId('delivery');
    await delivery.waitFor();
    expect(await delivery.textContent()).toContain('DELIVERED');
    await expectAccessible('webhook-detail');

    await delivery.getByRole('button', { name: /^Redeliver/ }).click();
    await drawer.getByText('Queued for redelivery.').waitFor();
    // The worker sends it (run here once rather than waiting for a poll).
    const transport = createWebhookTransport({ allowLocal: true });
    try {
      await runWebhookWorkerOnce({ db: t.ctx.db, clock: t.clock, secrets: t.ctx.secrets, transport, log: { debug() {}, info() {}, warn() {}, error() {} } as never, leaseMs: 60_000, concurrency: 2 });
    } finally {
      await transport.close();
    }
    expect(received).toHaveLength(2);
    await drawer.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => delivery.textContent()).toContain('2 attempt(s)');
    await drawer.getByRole('button', { name: 'Close' }).click();
  });

  it('job listings: create, edit, translate and publish a listing', async () => {
    await open('/job-listings', 'Job listings');
    await page.getByText('No job listings yet').waitFor();
    await page.getByRole('button', { name: 'New listing' }).click();
    let drawer = page.getByRole('dialog', { name: 'New job listing' });
    await drawer.getByLabel('Position', { exact: true }).fill('Senior welder');
    await drawer.getByLabel('Job description').fill('Weld pipelines on site.');
    await drawer.getByLabel('City').fill('Basel');
    await drawer.getByLabel('Country (ISO code)').fill('CH');
    await expectAccessible('job-listing-editor');
    await drawer.getByRole('button', { name: 'Create listing' }).click();
    const row = page.getByRole('row', { name: /Senior welder/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('DRAFT');

    await row.getByRole('button', { name: 'Edit Senior welder' }).click();
    drawer = page.getByRole('dialog', { name: 'Edit job listing' });
    await drawer.getByLabel('Job description').fill('Weld pipelines and pressure vessels on site.');
    await drawer.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await api(`/public/v1/job-listings?size=10`)).data[0]?.id).toBeTruthy();
    const [listing] = (await api('/public/v1/job-listings?size=10')).data;
    await expect.poll(async () => (await api(`/public/v1/job-listings/${listing.id}`)).jobDescription?.original).toBe('Weld pipelines and pressure vessels on site.');

    await drawer.getByRole('tab', { name: 'Translations' }).click();
    await drawer.getByLabel('Position in de').fill('Schweisser (Senior)');
    await drawer.getByLabel('Job description in de').fill('Rohrleitungen und Druckbehälter vor Ort schweissen.');
    await drawer.getByRole('button', { name: 'Save translation' }).click();
    await drawer.getByText('Translation saved.').waitFor();
    await expect.poll(() => drawer.getByText('Human translation', { exact: true }).count()).toBe(2);
    await expectAccessible('job-listing-translations');
    await drawer.getByRole('button', { name: 'Close' }).click();

    await row.getByRole('button', { name: 'More actions for Senior welder' }).click();
    await page.getByRole('menuitem', { name: 'Publish' }).click();
    await expect.poll(() => row.textContent()).toContain('ACTIVE');
    const german = await fetch(`${t.baseUrl}/public/v1/job-listings/${listing.id}`, { headers: { ...(await checker()), 'accept-language': 'de' } });
    expect(((await german.json()) as { position: unknown }).position).toMatchObject({ value: 'Schweisser (Senior)', translated: true, translationType: 'HUMAN' });
    await expectAccessible('job-listings');
  });

  it('review: turn review on in settings, publish a listing (waits for review), approve it from the queue', async () => {
    await open('/settings', 'Settings');
    await page.getByLabel('Listings need review').check();
    await page.getByRole('button', { name: 'Save company settings' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await getCompany(t.ctx, await companyId())).requiresListingReview).toBe(true);
    await expectAccessible('settings');

    await open('/job-listings', 'Job listings');
    await page.getByRole('button', { name: 'New listing' }).click();
    const drawer = page.getByRole('dialog', { name: 'New job listing' });
    await drawer.getByLabel('Position', { exact: true }).fill('Crane operator');
    await drawer.getByRole('button', { name: 'Create listing' }).click();
    const row = page.getByRole('row', { name: /Crane operator/ });
    await row.getByRole('button', { name: 'More actions for Crane operator' }).click();
    await page.getByRole('menuitem', { name: 'Publish' }).click();
    await expect.poll(() => row.textContent()).toContain('UNDER REVIEW');

    await page.getByRole('tab', { name: 'Review queue' }).click();
    await page.getByRole('button', { name: 'Approve Crane operator' }).waitFor();
    await expectAccessible('review-queue');
    await page.getByRole('button', { name: 'Approve Crane operator' }).click();
    await page.getByText('Nothing is waiting for review.').waitFor();
    const approved = (await api('/public/v1/job-listings?size=10')).data.find((item: { position: { value: string } }) => item.position.value === 'Crane operator');
    expect(approved.status).toBe('ACTIVE');
  });

  it('pipeline: drag and keyboard moves with expectedStatus, a clear message on a stale move, the history in the drawer', async () => {
    const [listing] = (await api('/public/v1/job-listings?size=10&status=ACTIVE')).data.filter((item: { position: { value: string } }) => item.position.value === 'Senior welder');
    const application = await api('/public/v1/applications', 'POST', {
      jobListingId: listing.id,
      candidate: { firstName: 'Ada', lastName: 'Lovelace', email: `ada-${randomUUID().slice(0, 6)}@example.com`, headline: 'Pipe welder' },
      coverLetter: 'I have welded pipelines for ten years.',
    });
    await open('/pipeline', 'Pipeline');
    await page.getByRole('combobox', { name: 'Job listing' }).click();
    await page.getByRole('option', { name: /Senior welder/ }).click();
    const card = page.getByTestId(`card-${application.id}`);
    await page.getByTestId('column-ACTIVE').getByTestId(`card-${application.id}`).waitFor();
    await expectAccessible('pipeline');

    // Drag with the pointer: Applied -> In review.
    const handle = card.getByRole('button', { name: /^Drag Ada Lovelace/ });
    const target = page.getByTestId('column-IN_REVIEW');
    const from = (await handle.boundingBox())!;
    const to = (await target.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 20, from.y + 10, { steps: 4 });
    await page.mouse.move(to.x + to.width / 2, to.y + 60, { steps: 12 });
    await page.mouse.move(to.x + to.width / 2 + 2, to.y + 62, { steps: 2 });
    await page.mouse.up();
    await page.getByText('Ada Lovelace moved to In review.').waitFor();
    await page.getByTestId('column-IN_REVIEW').getByTestId(`card-${application.id}`).waitFor();

    // With the keyboard: the card's "Move to" select, In review -> Interview.
    await card.getByRole('textbox', { name: 'Move Ada Lovelace to' }).focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('option', { name: 'Interview' }).click();
    await page.getByText('Ada Lovelace moved to Interview.').waitFor();
    expect((await api(`/public/v1/applications/${application.id}`)).status).toBe('INTERVIEW');

    // Someone else moves it first (Interview -> Offer); the board still shows Interview.
    await api(`/public/v1/applications/${application.id}/status`, 'PATCH', { status: 'OFFER', expectedStatus: 'INTERVIEW' });
    await card.getByRole('textbox', { name: 'Move Ada Lovelace to' }).click();
    await page.getByRole('option', { name: 'Hired' }).click();
    await page.getByText(/Someone else moved Ada Lovelace first/).waitFor();
    expect((await api(`/public/v1/applications/${application.id}`)).status).toBe('OFFER');
    await page.getByTestId('column-OFFER').getByTestId(`card-${application.id}`).waitFor();

    await card.getByRole('button', { name: 'Open Ada Lovelace' }).click();
    const drawer = page.getByRole('dialog', { name: 'Application' });
    await drawer.getByText('I have welded pipelines for ten years.').waitFor();
    const history = drawer.getByTestId('history');
    await expect.poll(() => history.textContent()).toContain('Interview → Offer');
    const text = (await history.textContent())!;
    expect(text).toContain('Applied → In review');
    expect(text).toContain('In review → Interview');
    await expectAccessible('pipeline-application');
    await drawer.getByRole('button', { name: 'Close' }).click();
  });

  it('candidates: CSV import reports per-row errors, then imports; search and profile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dashboard-csv-'));
    const bad = join(dir, 'bad.csv');
    const refused = join(dir, 'refused.csv');
    const good = join(dir, 'good.csv');
    writeFileSync(bad, 'firstName,lastName,email\nGrace,Hopper,grace@example.com\nAlan,,not-an-email\n');
    // The server refuses this one (links must be http or https): its detail names the row.
    writeFileSync(refused, 'firstName,lastName,email,links\nGrace,Hopper,grace@example.com,https://example.com/grace\nAlan,Turing,alan@example.com,ftp://example.com/alan\n');
    writeFileSync(good, 'firstName,lastName,email,headline,skills\nGrace,Hopper,grace@example.com,Compiler pioneer,COBOL;Leadership\n"Turing, Alan",Turing,alan@example.com,"Codebreaker, mathematician",Cryptanalysis\n');

    await open('/candidates', 'Candidates');
    // Ada (the pipeline's applicant) is the only candidate so far.
    await page.getByRole('button', { name: 'Ada Lovelace' }).waitFor();
    await page.locator('input[type=file]').setInputFiles(bad);
    const problems = page.getByTestId('import-problems');
    await expect.poll(() => problems.textContent()).toContain('Row 3');
    expect(await problems.textContent()).toContain('lastName is empty');
    expect(await problems.textContent()).toContain('not-an-email');

    await page.locator('input[type=file]').setInputFiles(refused);
    await page.getByRole('button', { name: /^Import 2 row/ }).click();
    await expect.poll(() => problems.textContent()).toMatch(/Row 3: links/);
    // All or nothing: Grace, valid on her own, was not imported either.
    expect((await api('/public/v1/candidates?q=grace')).data).toEqual([]);

    await page.locator('input[type=file]').setInputFiles(good);
    await page.getByRole('button', { name: /^Import 2 row/ }).click();
    await expect.poll(() => page.getByTestId('import-result').textContent()).toContain('2 created, 0 updated');
    await page.getByRole('button', { name: 'Grace Hopper' }).waitFor();
    await expectAccessible('candidates');

    await page.getByLabel('Search candidates').fill('codebreaker');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Grace Hopper' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Turing, Alan Turing' }).click();
    const profile = page.getByRole('dialog', { name: 'Candidate' });
    await profile.getByText('Cryptanalysis').waitFor();
    await expectAccessible('candidate-profile');
    await profile.getByRole('button', { name: 'Close' }).click();
  });

  it('overview: the funnel and applications over time, filtered by listing', async () => {
    await open('/', 'Overview');
    const funnel = page.getByTestId('funnel-chart');
    await funnel.locator('svg.recharts-surface').waitFor();
    await page.getByTestId('time-chart').locator('svg.recharts-surface').waitFor();
    expect(await funnel.textContent()).toContain('Applied: 1');
    await page.getByRole('combobox', { name: 'Job listing' }).click();
    await page.getByRole('option', { name: 'Crane operator' }).click();
    await page.getByText('No applications in this range yet.').waitFor();
    await page.getByRole('combobox', { name: 'Job listing' }).click();
    await page.getByRole('option', { name: 'Senior welder' }).click();
    await funnel.locator('svg.recharts-surface').waitFor();
    await expectAccessible('overview');
    // Everything the pages loaded came from the app's own origin.
    expect(driver.foreignRequests).toEqual([]);
  });
});
