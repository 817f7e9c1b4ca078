// The embedded default as a newcomer meets it (issue 31 items 10 and 11): `npm start` on an empty
// data directory of this checkout, after what `npm install` made (the dashboard's build and the
// migrated template, scripts/prepare.ts, made first and not timed). Timed: from `npm start` (its
// prestart included) until /readyz answers and the demo key is printed; and on until a new person,
// in Chromium, opened the printed sign-in link, signed in, pressed "Explore with sample data" and
// sees the sample pipeline's cards (issue 30's first minute). Then the server's resident memory
// idle, and its peak under load on the list endpoints.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { LoadResult, LoadSpec } from './load.ts';

interface EmbeddedBench {
  quick: boolean;
  root: string;
  port: number;
  seconds: number;
  load: (spec: LoadSpec) => Promise<LoadResult>;
  figure: (name: string, value: number | null, unit: string, goal: string, met: boolean | null, note?: string) => void;
  log: (message: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** CPU seconds (user + system) a process has used, from /proc (clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The server process under `npm start` (npm, then the script's shell exec'ed into node). */
function serverPid(npmPid: number): number | undefined {
  const queue = [npmPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('src/server.ts')) return pid;
      for (const task of readdirSync(`/proc/${pid}/task`)) {
        queue.push(...readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
      }
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/**
 * A new person's first minute in Debian's Chromium: the printed sign-in link, an e-mail address,
 * "Explore with sample data" on the overview, until the sample pipeline's cards are on screen.
 * Answers when they were (performance.now()).
 */
async function firstMinute(baseUrl: string, signInLink: string): Promise<number> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: baseUrl })).newPage();
    page.setDefaultTimeout(60_000);
    await page.goto(signInLink);
    await page.getByLabel('E-mail').fill(`newcomer-${Date.now().toString(36)}@example.com`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Explore with sample data' }).click();
    await page.locator('[data-testid^="card-"]:not([data-testid="card-times"])').first().waitFor({ state: 'visible' });
    return performance.now();
  } finally {
    await browser.close();
  }
}

export async function measureEmbedded(bench: EmbeddedBench): Promise<void> {
  const { root, port, figure, log } = bench;
  const prepared = spawnSync(process.execPath, ['scripts/prepare.ts'], { cwd: root, stdio: 'inherit', env: { ...process.env, DATABASE_URL: '' } });
  if (prepared.status !== 0) throw new Error('scripts/prepare.ts failed');
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-embedded-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_URL: undefined,
    PORT: String(port),
    DATA_DIR: dataDir,
    MODE: 'development',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000',
    MAX_REQUESTS_PER_SOCKET: '1000000',
  };
  delete env.DATABASE_URL;
  const started = performance.now();
  // A process group of its own: the signal at the end reaches npm and the server alike.
  const npm: ChildProcess = spawn('npm', ['start'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let keyAt: number | undefined;
  npm.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    keyAt ??= /rk_live_[A-Za-z0-9]+/.test(output) ? performance.now() : undefined;
  });
  npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    let readyAt: number | undefined;
    while (readyAt === undefined || keyAt === undefined) {
      if (npm.exitCode !== null) throw new Error(`npm start exited ${npm.exitCode}: ${output.slice(-2000)}`);
      if (performance.now() - started > 180_000) throw new Error('npm start: not ready within 180 s');
      if (readyAt === undefined) {
        try {
          if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) readyAt = performance.now();
        } catch {
          // not listening yet
        }
      }
      await sleep(50);
    }
    const key = /rk_live_[A-Za-z0-9]+/.exec(output)![0];
    const pid = serverPid(npm.pid!);
    if (!pid) throw new Error('npm start: server process not found');
    const seconds = (Math.max(readyAt, keyAt) - started) / 1000;
    figure('embedded_first_start_s', seconds, 's', '< 10', seconds < 10, `npm start on an empty data directory until /readyz answers and the demo key is printed; server CPU ${cpuSeconds(pid).toFixed(1)} s; load average ${loadavg()[0].toFixed(1)}`);
    // The sign-in link as printed (BASE_URL's host, localhost by default, is the authorization server's).
    for (let waited = 0; !/\/sign-in\s*$/m.test(output) && waited < 5_000; waited += 50) await sleep(50);
    const signInLink = /^\s+(http\S+\/sign-in)\s*$/m.exec(output)?.[1];
    if (!signInLink) throw new Error(`npm start printed no sign-in link: ${output.slice(-2000)}`);
    const onScreenAt = await firstMinute(new URL(signInLink).origin, signInLink);
    const firstMinuteSeconds = (onScreenAt - started) / 1000;
    figure('embedded_first_minute_s', firstMinuteSeconds, 's', '< 60', firstMinuteSeconds < 60, `npm start on an empty data directory, then a new person in Chromium: the printed sign-in link, an e-mail address, "Explore with sample data", until the sample pipeline's cards are on screen (typing at machine speed); load average ${loadavg()[0].toFixed(1)}`);

    const idleChecks = bench.quick ? [1] : [1, 5];
    let waited = 0;
    for (const minutes of idleChecks) {
      await sleep(minutes * 60_000 - waited);
      waited = minutes * 60_000;
      const rss = rssMb(pid);
      figure(`embedded_rss_idle_${minutes}min_mb`, rss, 'MB', '< 250', rss < 250, `server RSS ${minutes} min after the first start, idle; load average ${loadavg()[0].toFixed(1)}`);
    }

    let peak = rssMb(pid);
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, rssMb(pid));
      } catch {
        // exited
      }
    }, 250);
    const notes: string[] = [];
    try {
      const headers = { 'x-api-key': key };
      for (const path of ['/job-listings?size=20', '/applications?size=100', '/candidates?size=20', '/candidates?q=engineer&size=20']) {
        const result = await bench.load({ url: `http://127.0.0.1:${port}/public/v1${path}`, connections: 10, seconds: bench.seconds, headers });
        notes.push(`${path.replace(/[?&]size=\d+/, '')} ${result.rps.toFixed(0)} req/s`);
      }
    } finally {
      clearInterval(sampler);
    }
    figure('embedded_rss_under_load_mb', peak, 'MB', '< 300', peak < 300, `peak server RSS, demo data, 10 connections: ${notes.join(', ')}; load average ${loadavg()[0].toFixed(1)}`);
    log(`embedded: server pid ${pid}, data ${dataDir}`);
  } finally {
    try {
      process.kill(-npm.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    await new Promise((resolve) => (npm.exitCode !== null ? resolve(undefined) : npm.once('exit', resolve)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
