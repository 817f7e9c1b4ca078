// Scale benchmark: how list, search and analytics latency grows with the data set. Seeds a small
// and a 20x larger company into one embedded database (or DATABASE_URL), then times the same
// requests through the real app on each and prints the large/small ratio measured in this run.
// An indexed endpoint stays near 1x; a full scan grows towards 20x.
//   npm run bench            (BENCH_SCALE=5 for a 5x larger run)
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { createApiKey } from '../src/modules/api-keys/service.ts';
import { ALL_SCOPES } from '../src/modules/api-keys/scopes.ts';
import { seedBulk } from '../src/modules/demo/seed-bulk.ts';
import { systemClock } from '../src/shared/clock.ts';
import { loadEncryptionKeys } from '../src/shared/encryption-keys.ts';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const small = { listings: 20, candidates: 1_000, applications: 5_000 };
const large = { listings: 400, candidates: 20_000 * scale, applications: 100_000 * scale };
const ROUNDS = 30;

const config = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false', DATABASE_URL: process.env.DATABASE_URL });
const database = await openDatabase({ databaseUrl: config.databaseUrl });
await migrate(database);
const { box: secrets } = loadEncryptionKeys(config);
const ctx = { db: database.db, clock: systemClock, secrets };
const app = await buildApp({ config: { ...config, rateLimitPerMinute: 1_000_000 }, database, clock: systemClock, secrets });

async function tenantWith(size: typeof small) {
  const started = performance.now();
  const seeded = await seedBulk(database, size);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`seeded ${size.applications} applications, ${size.candidates} candidates in ${seconds} s`);
  const key = await createApiKey(ctx, { companyId: seeded.companyId, label: 'bench', scopes: ALL_SCOPES });
  return { 'x-api-key': key.rawKey };
}

async function medianMs(url: string, headers: Record<string, string>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    const res = await app.inject({ url, headers });
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const smallHeaders = await tenantWith(small);
const largeHeaders = await tenantWith(large);
const urls = [
  '/public/v1/applications?size=20',
  '/public/v1/applications?size=100&page=3',
  '/public/v1/applications?status=INTERVIEW',
  '/public/v1/candidates?size=20',
  '/public/v1/candidates?q=engineer',
  '/public/v1/job-listings?size=20',
  '/public/v1/analytics/overview',
];
console.log(`\nmedian of ${ROUNDS} requests each; data ratio ${large.applications / small.applications}x`);
console.log('endpoint'.padEnd(44), 'small ms'.padStart(9), 'large ms'.padStart(9), 'ratio'.padStart(7));
for (const url of urls) {
  const a = await medianMs(url, smallHeaders);
  const b = await medianMs(url, largeHeaders);
  console.log(url.padEnd(44), a.toFixed(2).padStart(9), b.toFixed(2).padStart(9), `${(b / a).toFixed(2)}x`.padStart(7));
}
await app.close();
await database.close();
