// What a first `npm start` needs, made ahead of it: the dashboard's build (scripts/build-dashboard.ts)
// and the embedded database's migrated template (src/db/embedded-template.ts). `npm install` runs it
// (postinstall), so the first start only copies the template and serves; `npm start` runs it again
// (prestart), where both are already current and it takes a moment (or it makes what an install with
// --ignore-scripts left out). It never fails an install or a start: what it cannot make is said, and
// the server goes on without it (no dashboard; migrations run at the first start instead).
// With DATABASE_URL set the template is not used, so it is not made.
import { fileURLToPath } from 'node:url';
import { buildDashboard } from './build-dashboard.ts';

export async function prepare(): Promise<void> {
  try {
    buildDashboard({ quiet: true });
  } catch (error) {
    console.warn(`dashboard: not built: ${(error as Error).message}`);
  }
  if (process.env.DATABASE_URL) return;
  try {
    // Imported here: a dashboard-only run does not load PGlite.
    const { buildTemplate, currentTemplate } = await import('../src/db/embedded-template.ts');
    if (currentTemplate()) return;
    const started = performance.now();
    const path = await buildTemplate();
    console.log(`embedded database: migrated template made in ${((performance.now() - started) / 1000).toFixed(1)} s (${path})`);
  } catch (error) {
    console.warn(`embedded database: no template made (the first start migrates instead): ${(error as Error).message}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await prepare();
