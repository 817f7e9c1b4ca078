// The dashboard behind an address that others misuse (an office's NAT), in Chromium: an
// integration's failing API keys do not keep the dashboard from signing in, and when the dashboard
// itself is refused for now (429) it says so and when to try again instead of spinning on
// "Signing in". Short on purpose: one sign-in, one refused reload.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildDashboard } from '../../scripts/build-dashboard.ts';
import { startListeningApp, type ListeningApp } from '../identity/server.ts';
import { launch, type Driver } from './browser.ts';

let t: ListeningApp;
let driver: Driver;
let page: Page;

beforeAll(async () => {
  expect(buildDashboard({ quiet: true })).toBe(true);
  t = await startListeningApp({ DEV_SIGN_IN: 'true', AUTH_FAILURES_PER_MINUTE: '3', RATE_LIMIT_PER_MINUTE: '30' });
  driver = await launch(t.baseUrl);
  page = driver.page;
  page.setDefaultTimeout(15_000);
}, 180_000);

afterAll(async () => {
  await driver?.close();
  await t?.close();
});

/** The server's clock to the start of a fresh minute: the limits' windows do not roll over mid-test. */
function freshMinute(): void {
  const now = t.clock.now().getTime();
  t.clock.advance(60_000 - (now % 60_000));
}

const publicCall = (headers: Record<string, string>) => fetch(`${t.baseUrl}/public/v1/enums`, { headers });

it('signs in despite failing API keys from the same address, and says when to retry when refused', { timeout: 120_000 }, async () => {
  freshMinute();
  // A careless integration on the same address (this machine, as the browser's): past the limit.
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await publicCall({ 'x-api-key': `rk_live_${randomUUID()}` })).status);
  expect(statuses).toEqual([401, 401, 401, 429]);

  await page.goto('/dashboard/');
  await page.getByLabel('E-mail').fill(`office-${randomUUID().slice(0, 8)}@example.com`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();

  // Now the address's own budget (bearer calls are counted per address) is used up...
  freshMinute();
  for (let i = 0; i < 30; i++) await publicCall({ authorization: `Bearer ${'x'.repeat(43)}` });
  // ...and a reload signs in again (silently) and is refused: the page says what and until when.
  await page.reload();
  const alert = page.getByRole('alert').filter({ hasText: 'Could not sign in' });
  await alert.waitFor();
  await expect.poll(() => alert.getByTestId('retry-advice').count()).toBe(1);
  // In words: no error code or HTTP status for a person to decode.
  expect(await alert.textContent()).not.toMatch(/HTTP 429|TOO_MANY_REQUESTS/);
  expect(await alert.getByTestId('retry-advice').textContent()).toMatch(/^Too many requests for now\. Try again in (\d+ seconds|1 minute)\.$/);
});
