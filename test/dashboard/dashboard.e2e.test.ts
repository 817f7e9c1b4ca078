// The company dashboard end to end: Debian's Chromium (playwright-core) signs in through /oauth2
// with the development sign-in and uses every page against the real app on a real port and a real
// database. Each page is checked with axe-core (no serious or critical violation) and
// photographed at 1280 and 390 pixels wide into docs/screenshots/. One browser and one page for
// the whole file: the steps build on each other, in order.
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildDashboard } from '../../scripts/build-dashboard.ts';
import { runWebhookWorkerOnce } from '../../src/modules/webhooks/delivery-worker.ts';
import { createWebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { startListeningApp, type ListeningApp } from '../identity/server.ts';
import { checkPage, launch, type Driver } from './browser.ts';

let t: ListeningApp;
let driver: Driver;
let page: Page;
const email = `recruiter-${randomUUID().slice(0, 8)}@example.com`;

beforeAll(async () => {
  // The app reads dashboard/dist when it is built: build first (a no-op when current).
  expect(buildDashboard({ quiet: true })).toBe(true);
  t = await startListeningApp({ DEV_SIGN_IN: 'true' });
  driver = await launch(t.baseUrl);
  page = driver.page;
  page.setDefaultTimeout(15_000);
}, 180_000);

afterAll(async () => {
  await driver?.close();
  await t?.close();
});

async function open(path: string, heading: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: heading, exact: true }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe(`/dashboard${path}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

async function expectAccessible(name: string): Promise<void> {
  await page.getByRole('status').waitFor({ state: 'detached' }).catch(() => undefined);
  expect(await checkPage(page, name)).toEqual([]);
}

describe('dashboard (Chromium, end to end)', () => {
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
});
