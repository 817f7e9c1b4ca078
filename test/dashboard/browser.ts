// Debian's Chromium driven by playwright-core (never a downloaded browser), for the dashboard's
// end-to-end tests. One browser and one page per suite: starting Chromium is the slow part.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Where the pages are photographed: test-results/screenshots, so `npm test` changes no tracked file;
 * `npm run screenshots` points SCREENSHOTS_DIR at docs/screenshots to refresh the docs' copies.
 */
export const SCREENSHOTS = process.env.SCREENSHOTS_DIR
  ? resolve(process.env.SCREENSHOTS_DIR)
  : fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

// Without the background-networking flags Chromium calls Google's hosts at start, which this
// machine's closed network refuses: nothing may leave the machine.
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface Driver {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Every request the page made to another origin than the app's. */
  foreignRequests: string[];
  close(): Promise<void>;
}

export async function launch(baseUrl: string): Promise<Driver> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`);
  }
  // playwright gives the browser a new empty profile of its own.
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: baseUrl, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const origin = new URL(baseUrl).origin;
  const foreignRequests: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) foreignRequests.push(url);
  });
  return {
    browser,
    context,
    page,
    foreignRequests,
    async close() {
      await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
    },
  };
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.1 A and AA). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')}`);
}

/**
 * Buttons and links of the page's main part that lie outside the window sideways (a table's action
 * pushed off a phone's screen). A region marked `data-scrolls-sideways` (the pipeline board) is
 * meant to be scrolled and is left out.
 */
export async function offScreenControls(page: Page): Promise<string[]> {
  // A script string: this file is compiled without the DOM's types.
  return (await page.evaluate(`(() => {
    const found = [];
    for (const element of document.querySelectorAll('main button, main a[href], main [role="button"]')) {
      if (element.closest('[data-scrolls-sideways]')) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.left < -1 || box.right > window.innerWidth + 1) {
        found.push('"' + (element.getAttribute('aria-label') || element.textContent || '').trim().slice(0, 40) + '"');
      }
    }
    return found;
  })()`)) as string[];
}

/**
 * At 1280 and at 390 pixels wide: axe's serious and critical violations and the controls off screen
 * (returned, prefixed with the width), and a screenshot, <SCREENSHOTS>/<name>-1280.png and -390.png.
 */
export async function checkPage(page: Page, name: string): Promise<string[]> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const problems: string[] = [];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await layoutSettled(page); // the navigation collapses to a menu at 390
    problems.push(...(await seriousViolations(page)).map((problem) => `${width}px: ${problem}`));
    problems.push(...(await offScreenControls(page)).map((control) => `${width}px: off screen: ${control}`));
    // From the top: a full-page shot of a scrolled page draws the fixed header mid-page.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true, animations: 'disabled' });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await layoutSettled(page); // the navigation slides back in before the next step measures anything
  return problems;
}

/**
 * Waits until the page's CSS transitions (the navigation sliding in or out after a change of width)
 * have run: two frames for them to start, then none running. A fixed pause was too short on a
 * loaded host. Keyframe animations (a loader's spin) never end and are not waited for. Checked in
 * the page frame by frame (the page's CSP refuses Playwright's string predicates).
 */
async function layoutSettled(page: Page): Promise<void> {
  await page.evaluate(`new Promise((resolve, reject) => {
    const givenUp = setTimeout(() => reject(new Error('a CSS transition still running after 10 s')), 10_000);
    const moving = () => document.getAnimations().some((animation) => animation instanceof CSSTransition && animation.playState === 'running');
    const check = () => (moving() ? requestAnimationFrame(check) : (clearTimeout(givenUp), resolve(undefined)));
    requestAnimationFrame(() => requestAnimationFrame(check));
  })`);
}
