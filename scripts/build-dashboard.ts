// Builds the dashboard (dashboard/ -> dashboard/dist) with Vite when its build is missing or stale:
// `npm start` runs it first (prestart), so `npm install && npm start` serves a current dashboard.
// "Stale" is judged by content: a SHA-256 over the dashboard's sources (and the lock file, which
// pins its libraries) is written beside the build and compared, so a checkout's file times do not
// matter. --force builds anyway. When Vite is not installed (the dashboard workspace left out of
// the install) it says so and exits 0: the API starts without a dashboard and /dashboard explains.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DASHBOARD = join(ROOT, 'dashboard');
const DIST = join(DASHBOARD, 'dist');
const STAMP = join(DIST, '.source-hash');
// Built beside dist, then swapped in: a server reading dist at start never sees half a build.
const NEXT = join(DASHBOARD, 'dist-next');

function sourceHash(): string {
  const hash = createHash('sha256');
  const files = [
    ...['index.html', 'vite.config.ts', 'package.json', 'tsconfig.json'].map((name) => join(DASHBOARD, name)),
    ...(['src', 'public'] as const).flatMap((folder) => {
      const dir = join(DASHBOARD, folder);
      if (!existsSync(dir)) return [];
      return (readdirSync(dir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name));
    }),
    join(ROOT, 'package-lock.json'),
  ]
    .filter((file) => existsSync(file))
    .sort();
  for (const file of files) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

export function dashboardBuildIsCurrent(): boolean {
  return existsSync(join(DIST, 'index.html')) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === sourceHash();
}

function viteBin(): string | undefined {
  try {
    const require = createRequire(join(DASHBOARD, 'package.json'));
    return join(require.resolve('vite/package.json'), '..', 'bin', 'vite.js');
  } catch {
    return undefined;
  }
}

/** Builds when needed; true when a current build is in place afterwards. */
export function buildDashboard(options: { force?: boolean; quiet?: boolean } = {}): boolean {
  if (!options.force && dashboardBuildIsCurrent()) {
    if (!options.quiet) console.log('dashboard: build is current (dashboard/dist)');
    return true;
  }
  const vite = viteBin();
  if (!vite) {
    console.warn('dashboard: not built: Vite is not installed (install the dashboard workspace). The API starts without the dashboard.');
    return false;
  }
  const hash = sourceHash();
  console.log('dashboard: building with Vite (dashboard/ -> dashboard/dist)...');
  const run = spawnSync(process.execPath, [vite, 'build', '--outDir', NEXT, '--emptyOutDir', '--logLevel', options.quiet ? 'warn' : 'info'], {
    cwd: DASHBOARD,
    stdio: 'inherit',
  });
  if (run.status !== 0) {
    console.error(`dashboard: the build failed (exit ${run.status ?? run.signal})`);
    return false;
  }
  writeFileSync(join(NEXT, '.source-hash'), `${hash}\n`);
  rmSync(DIST, { recursive: true, force: true });
  renameSync(NEXT, DIST);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const force = process.argv.includes('--force');
  const ok = buildDashboard({ force });
  // `npm start` goes on without a dashboard when Vite is missing; a failed build is an error
  // only when asked for explicitly (npm run build:dashboard).
  if (!ok && process.argv.includes('--strict')) process.exitCode = 1;
}
